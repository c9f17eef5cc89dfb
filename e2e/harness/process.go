package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/malefiz-discord/malefiz/serve"
	"github.com/malefiz-discord/malefiz/subcommand"
)

// OwnBudgetEnv, set to 1 in a child's environment, makes HelperProcess run
// the bot with serve.Main.OwnBudget: each replica paces the global limit by
// itself, as if the shared budget did not exist.
const OwnBudgetEnv = "MALEFIZ_TEST_OWN_BUDGET"

// HelperProcess is the body of a test named TestHelperProcess that a test
// runs as a child process (os.Args[0] with -test.run=^TestHelperProcess$
// and MALEFIZ_HELPER_PROCESS=1): it runs the bot as `malefiz run` does,
// configured by the environment, and exits with its status. In the parent
// it skips. MALEFIZ_TEST_CPUPROFILE profiles the child: the bot's own CPU,
// without the fake's or the test's.
func HelperProcess(t *testing.T) {
	if os.Getenv("MALEFIZ_HELPER_PROCESS") != "1" {
		t.Skip("runs only as a child process")
	}
	if path := os.Getenv("MALEFIZ_TEST_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		require.NoError(t, err)
		require.NoError(t, pprof.StartCPUProfile(f))
		code := subcommand.Run("run", serve.RunCommand, nil, os.Stdout, os.Stderr)
		pprof.StopCPUProfile()
		require.NoError(t, f.Close())
		os.Exit(code)
	}
	if os.Getenv(OwnBudgetEnv) == "1" {
		os.Exit(runOwnBudget())
	}
	os.Exit(subcommand.Run("run", serve.RunCommand, nil, os.Stdout, os.Stderr))
}

// runOwnBudget runs the bot as `malefiz run` does, with Main.OwnBudget.
func runOwnBudget() int {
	cfg, err := serve.LoadConfig("", os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, subcommand.OneLine(err))
		return 2
	}
	logger := cfg.Logger(os.Stderr)
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	m := &serve.Main{Config: cfg, Logger: logger, OwnBudget: true}
	if err := m.Run(ctx); err != nil {
		logger.Error("could not start", "err", err)
		return 1
	}
	<-ctx.Done()
	if err := m.Close(); err != nil {
		return 1
	}
	return 0
}

// Run runs a subcommand as the malefiz command does (its name, then its
// flags) and returns its exit status and what it printed.
func Run(name string, cmd subcommand.Command, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = subcommand.Run(name, cmd, args, &out, &errb)
	return code, out.String(), errb.String()
}
