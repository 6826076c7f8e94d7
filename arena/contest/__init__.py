"""The contest server: a Django project on top of the arena (arena serve)."""
