//go:build linux

package activity

import (
	"errors"
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// splitCPUs parts the CPUs this process may run on: the last for the
// silent dialer, the others for the server (-load-pin).
func splitCPUs() (server, dialer []int, err error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, nil, err
	}
	var cpus []int
	for c := 0; len(cpus) < set.Count(); c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	if len(cpus) < 2 {
		return nil, nil, errors.New("-load-pin needs two CPUs or more")
	}
	return cpus[:len(cpus)-1], cpus[len(cpus)-1:], nil
}

// pinProcess binds every thread of this process to cpus, and the Go
// scheduler to as many: BenchmarkActivityLoad/silent's -load-pin, which
// puts the server and the silent dialer on cores of their own. A thread
// the runtime starts later inherits the affinity of the thread that
// starts it, so the threads are pinned pass after pass until a pass finds
// none left to pin.
func pinProcess(cpus []int) error {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	for pinned := true; pinned; {
		pinned = false
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		for _, task := range tasks {
			tid, err := strconv.Atoi(task.Name())
			if err != nil {
				continue
			}
			var now unix.CPUSet
			if err := unix.SchedGetaffinity(tid, &now); err != nil || now == set {
				continue // gone, or pinned already
			}
			if err := unix.SchedSetaffinity(tid, &set); err != nil && !errors.Is(err, unix.ESRCH) {
				return err
			}
			pinned = true
		}
	}
	runtime.GOMAXPROCS(len(cpus))
	return nil
}
