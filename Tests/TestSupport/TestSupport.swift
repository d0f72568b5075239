public enum TestSupportInfo {}
