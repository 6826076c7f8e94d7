"""Strategy code shared by the shipped bots and ``arena solve`` (not bots
themselves: ``bots/*`` holds only the programs)."""
