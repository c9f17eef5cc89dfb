package store

// TestBackends returns the backends the tests run on (see testBackends).
var TestBackends = testBackends

// ForEachBackend runs a test on each backend, in parallel (see
// forEachBackend).
var ForEachBackend = forEachBackend
