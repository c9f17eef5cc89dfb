package tools

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "board.png")
	var stdout, stderr bytes.Buffer
	if code := renderCommand([]string{"-roll", "4", "-size", "400", "-o", file, "start"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr.String())
	}
	if got, want := stdout.String(), "A home-a2\nB home-e2\nC home-f1\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != 400 {
		t.Errorf("width %d, want 400", w)
	}
}

func TestRenderCommandStdout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := strings.Fields("-o - players=ry turn=r r=h13 y=j13 x=a3,e3,i3,m3,q3,g7,k7,i9,i10,i11,d5")
	if code := renderCommand(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr.String())
	}
	img, err := png.Decode(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != 1024 {
		t.Errorf("width %d, want the default 1024", w)
	}
}

func TestRenderCommandErrors(t *testing.T) {
	dir := t.TempDir()
	for name, args := range map[string][]string{
		"no position":  {"-o", filepath.Join(dir, "a.png")},
		"no output":    {"start"},
		"bad roll":     {"-roll", "7", "-o", filepath.Join(dir, "b.png"), "start"},
		"bad size":     {"-size", "10", "-o", filepath.Join(dir, "c.png"), "start"},
		"bad position": {"-o", filepath.Join(dir, "d.png"), "players=rx"},
		"bad flag":     {"-colour", "red", "start"},
		"bad dir":      {"-o", filepath.Join(dir, "no", "such", "e.png"), "start"},
	} {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := renderCommand(args, &stdout, &stderr); code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			if msg := stderr.String(); !strings.HasPrefix(msg, "malefiz: render: ") || strings.Count(msg, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting with \"malefiz: render: \"", msg)
			}
		})
	}
}
