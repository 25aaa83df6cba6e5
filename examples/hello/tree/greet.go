package main

// greeting returns the line printed for name.
func greeting(name string) string {
	return "Hello, " + name + "!"
}
