"""What the test modules share: comparators, space recipes, fuzz generators, client environments."""
