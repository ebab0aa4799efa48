package consolidate

import (
	"bytes"
	"os"
	"strconv"
)

// processStart is when process pid started: the boot's ID and the start
// time in clock ticks since boot (field 22 of /proc/<pid>/stat), so that
// a pid reused after the holder died, or after a reboot, does not pass
// for the holder. "" when it cannot be read.
func processStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses: the fields after it follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	fields := bytes.Fields(b[i+1:])
	const startField = 22 - 3 // fields after ')' begin with field 3
	if len(fields) <= startField {
		return ""
	}
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return "linux:" + string(bytes.TrimSpace(boot)) + ":" + string(fields[startField])
}
