"""Burns CPU forever."""

while True:
    pass
