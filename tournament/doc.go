// Package tournament pairs and ranks a server's tournament.
package tournament
