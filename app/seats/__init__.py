"""Who holds which side of which room.

Below both ``rooms`` (which seats and unseats people) and ``games`` (whose command path lets
only a side's holders act for it), so neither imports the other for it.
"""
