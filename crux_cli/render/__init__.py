"""Renderers: results → text for people, plain lines for pipes, JSON Lines for scripts."""
