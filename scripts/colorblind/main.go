// Command colorblind writes pictures as a colour-blind eye sees them, by
// the simulation of package render/vision (Machado 2009): for each PNG
// given, NAME-DEFICIENCY.png beside it. The README's screenshots under
// simulated deuteranopia come from it, after the browser tests rewrote
// the originals (-update):
//
//	go run ./scripts/colorblind docs/sandbox.png docs/chances.png docs/activity-placing.png
package main

import (
	"flag"
	"fmt"
	"image/png"
	"os"
	"strings"

	"github.com/malefiz-discord/malefiz/render/vision"
)

func main() {
	name := flag.String("deficiency", vision.Deuteranopia.Name, "protanopia, deuteranopia or tritanopia")
	flag.Parse()
	if err := run(*name, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "colorblind:", err)
		os.Exit(1)
	}
}

// run writes each of paths as seen with the deficiency named name.
func run(name string, paths []string) error {
	var d vision.Deficiency
	for _, x := range vision.Deficiencies {
		if x.Name == name {
			d = x
		}
	}
	if d.Name == "" {
		return fmt.Errorf("no deficiency %q", name)
	}
	for _, path := range paths {
		out, err := convert(d, path)
		if err != nil {
			return err
		}
		fmt.Println("wrote", out)
	}
	return nil
}

// convert writes the PNG at path as seen with d, and returns where.
func convert(d vision.Deficiency, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	out := strings.TrimSuffix(path, ".png") + "-" + d.Name + ".png"
	w, err := os.Create(out)
	if err != nil {
		return "", err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(w, d.Image(img)); err != nil {
		w.Close()
		return "", err
	}
	return out, w.Close()
}
