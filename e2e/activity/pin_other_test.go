//go:build !linux

package activity

import "errors"

var errPinLinux = errors.New("-load-pin binds threads to CPUs with Linux's sched_setaffinity")

// splitCPUs is Linux's: elsewhere -load-pin fails.
func splitCPUs() (server, dialer []int, err error) { return nil, nil, errPinLinux }

// pinProcess is Linux's: elsewhere -load-pin fails.
func pinProcess([]int) error { return errPinLinux }
