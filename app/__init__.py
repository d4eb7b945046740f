"""Online home of the board games Base on Board and Bottom of the 9th."""
