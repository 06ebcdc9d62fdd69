int broken() { return undeclared_variable; }
