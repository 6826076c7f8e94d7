"""Plays fine: copies game.in to game.out, notes each move in notes.txt, says hello."""

import shutil

shutil.copy("game.in", "game.out")
with open("notes.txt", "a") as notes:
    notes.write("moved\n")
print("hello from ok")
