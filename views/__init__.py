"""The replay views of the arena's own games, one module per game (``arena.views`` says what a
view does; each game's declaration in ``referees`` names its view here)."""
