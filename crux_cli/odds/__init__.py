"""Exact odds: every outcome's probability as a fraction, from the same requests the engine rolls."""
