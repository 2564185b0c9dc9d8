"""What the record implies before any rule: the replay of who holds what, hand shapes."""
