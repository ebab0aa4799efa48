package consolidate

import "os"

// process identifies a running process across pid reuse.
type process struct {
	host  string
	pid   int
	start string // processStart; "" when unknown
}

func currentProcess() process {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return process{host: host, pid: os.Getpid(), start: processStart(os.Getpid())}
}

// processLives reports whether the process pid on this host is the one
// that started at start: it exists and, when both start times are known,
// started then (else its pid was reused by another process).
func processLives(pid int, start string) bool {
	if !processExists(pid) {
		return false
	}
	if start == "" {
		return true
	}
	now := processStart(pid)
	return now == "" || now == start
}
