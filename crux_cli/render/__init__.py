"""Renderers: results and odds as text for people, plain lines, and JSON."""
