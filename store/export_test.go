package store

// TestBackends returns the backends the tests run on (see testBackends).
var TestBackends = testBackends
