"""Exits 0 without writing game.out."""
