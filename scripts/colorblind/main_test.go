package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConvert writes a red and a green pixel as deuteranopia sees them:
// beside the original, both turned towards one yellow-brown.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 2, 1))
	img.Set(0, 0, color.RGBA{220, 40, 40, 255})
	img.Set(1, 0, color.RGBA{40, 160, 40, 255})
	path := filepath.Join(dir, "two.png")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, img))
	require.NoError(t, f.Close())

	require.NoError(t, run("deuteranopia", []string{path}))
	f, err = os.Open(filepath.Join(dir, "two-deuteranopia.png"))
	require.NoError(t, err)
	defer f.Close()
	got, err := png.Decode(f)
	require.NoError(t, err)
	r, g := color.RGBAModel.Convert(got.At(0, 0)).(color.RGBA), color.RGBAModel.Convert(got.At(1, 0)).(color.RGBA)
	assert.Greater(t, r.G, uint8(40), "red gains green")
	assert.Greater(t, g.R, uint8(40), "green gains red")
	assert.Error(t, run("achromatopsia", []string{path}))
}
