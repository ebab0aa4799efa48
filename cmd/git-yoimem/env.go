package main

import (
	"io"
	"time"
)

// Env is every side effect a command may use. main builds the real one;
// tests build their own.
type Env struct {
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Getenv  func(string) string
	Environ func() []string // environment passed to git
	Dir     string          // working directory
	Now     func() time.Time
}
