// Package vision is colour as different eyes see it: colour vision
// deficiencies simulated on sRGB colours and images, the CIEDE2000
// difference of two colours, and WCAG's contrast ratio. The tests that
// keep the players' colours apart and the text readable use it, and so
// does the command that draws the screenshots under simulated
// deuteranopia.
package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
)

// A Deficiency is a colour vision deficiency as a matrix on linear RGB.
type Deficiency struct {
	Name string
	M    [3][3]float64
}

// The deficiencies at severity 1.0, by the matrices of Machado, Oliveira
// and Fernandes, "A Physiologically-based Model for Simulation of Color
// Vision Deficiency" (IEEE TVCG 15(6), 2009), applied to linear RGB.
var (
	Protanopia   = Deficiency{"protanopia", [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}}
	Deuteranopia = Deficiency{"deuteranopia", [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}}
	Tritanopia   = Deficiency{"tritanopia", [3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}}
	// Normal is normal colour vision, for comparison.
	Normal = Deficiency{"normal vision", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
)

// Deficiencies are the three simulated: protanopia, deuteranopia,
// tritanopia.
var Deficiencies = []Deficiency{Protanopia, Deuteranopia, Tritanopia}

// linear is an sRGB component (0–255) as linear light (0–1).
func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// encode is linear light as an sRGB component (0–255).
func encode(c float64) uint8 {
	c = min(max(c, 0), 1)
	if c <= 0.0031308 {
		c *= 12.92
	} else {
		c = 1.055*math.Pow(c, 1/2.4) - 0.055
	}
	return uint8(math.Round(c * 255))
}

// Linear is c (alpha ignored) in linear RGB, 0 to 1.
func Linear(c color.RGBA) [3]float64 { return [3]float64{linear(c.R), linear(c.G), linear(c.B)} }

// apply is linear RGB rgb as seen with d, clamped to 0–1.
func (d Deficiency) apply(rgb [3]float64) [3]float64 {
	var out [3]float64
	for i := range 3 {
		out[i] = min(max(d.M[i][0]*rgb[0]+d.M[i][1]*rgb[1]+d.M[i][2]*rgb[2], 0), 1)
	}
	return out
}

// Simulate is c as seen with d.
func (d Deficiency) Simulate(c color.RGBA) color.RGBA {
	s := d.apply(Linear(c))
	return color.RGBA{encode(s[0]), encode(s[1]), encode(s[2]), c.A}
}

// Image is img as seen with d.
func (d Deficiency) Image(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(b)
	cache := map[color.RGBA]color.RGBA{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			s, ok := cache[c]
			if !ok {
				s = d.Simulate(unpremultiply(c))
				s = premultiply(s, c.A)
				cache[c] = s
			}
			out.SetRGBA(x, y, s)
		}
	}
	return out
}

func unpremultiply(c color.RGBA) color.RGBA {
	if c.A == 0 || c.A == 255 {
		return c
	}
	f := func(v uint8) uint8 { return uint8(min(255, int(v)*255/int(c.A))) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), c.A}
}

func premultiply(c color.RGBA, a uint8) color.RGBA {
	f := func(v uint8) uint8 { return uint8(int(v) * int(a) / 255) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), a}
}

// Difference is the CIEDE2000 difference of a and b as seen with d.
func (d Deficiency) Difference(a, b color.RGBA) float64 {
	return CIEDE2000(Lab(d.apply(Linear(a))), Lab(d.apply(Linear(b))))
}

// Lab is a linear RGB colour in CIELAB (D65 white).
func Lab(rgb [3]float64) [3]float64 {
	x := 0.4124564*rgb[0] + 0.3575761*rgb[1] + 0.1804375*rgb[2]
	y := 0.2126729*rgb[0] + 0.7151522*rgb[1] + 0.0721750*rgb[2]
	z := 0.0193339*rgb[0] + 0.1191920*rgb[1] + 0.9503041*rgb[2]
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x/0.95047), f(y), f(z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// CIEDE2000 is the colour difference of two CIELAB colours (kL = kC =
// kH = 1), by Sharma, Wu and Dalal, "The CIEDE2000 Color-Difference
// Formula: Implementation Notes, Supplementary Test Data, and
// Mathematical Observations" (2005).
func CIEDE2000(a, b [3]float64) float64 {
	const rad = math.Pi / 180
	pow7 := func(x float64) float64 { return math.Pow(x, 7) }
	c1, c2 := math.Hypot(a[1], a[2]), math.Hypot(b[1], b[2])
	cm := (c1 + c2) / 2
	g := 0.5 * (1 - math.Sqrt(pow7(cm)/(pow7(cm)+pow7(25))))
	a1, a2 := (1+g)*a[1], (1+g)*b[1]
	c1p, c2p := math.Hypot(a1, a[2]), math.Hypot(a2, b[2])
	hue := func(x, y float64) float64 {
		if x == 0 && y == 0 {
			return 0
		}
		h := math.Atan2(y, x) / rad
		if h < 0 {
			h += 360
		}
		return h
	}
	h1, h2 := hue(a1, a[2]), hue(a2, b[2])
	dL, dC := b[0]-a[0], c2p-c1p
	var dh float64
	switch {
	case c1p*c2p == 0:
	case math.Abs(h2-h1) <= 180:
		dh = h2 - h1
	case h2-h1 > 180:
		dh = h2 - h1 - 360
	default:
		dh = h2 - h1 + 360
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*rad)
	lm, cmp := (a[0]+b[0])/2, (c1p+c2p)/2
	hm := h1 + h2
	switch {
	case c1p*c2p == 0:
	case math.Abs(h1-h2) <= 180:
		hm /= 2
	case h1+h2 < 360:
		hm = (hm + 360) / 2
	default:
		hm = (hm - 360) / 2
	}
	t := 1 - 0.17*math.Cos((hm-30)*rad) + 0.24*math.Cos(2*hm*rad) + 0.32*math.Cos((3*hm+6)*rad) - 0.20*math.Cos((4*hm-63)*rad)
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	rc := 2 * math.Sqrt(pow7(cmp)/(pow7(cmp)+pow7(25)))
	sl := 1 + 0.015*math.Pow(lm-50, 2)/math.Sqrt(20+math.Pow(lm-50, 2))
	sc := 1 + 0.045*cmp
	sh := 1 + 0.015*cmp*t
	rt := -math.Sin(2*dTheta*rad) * rc
	return math.Sqrt(math.Pow(dL/sl, 2) + math.Pow(dC/sc, 2) + math.Pow(dH/sh, 2) + rt*(dC/sc)*(dH/sh))
}

// Luminance is c's relative luminance (WCAG 2.2).
func Luminance(c color.RGBA) float64 {
	l := Linear(c)
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// Contrast is WCAG 2.2's contrast ratio of two colours, 1 to 21; AA asks
// 4.5 for normal text, 3 for large text and graphics.
func Contrast(a, b color.RGBA) float64 {
	la, lb := Luminance(a), Luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Hex parses a CSS colour "#rrggbb" or "#rgb".
func Hex(s string) (color.RGBA, error) {
	h := strings.TrimPrefix(s, "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if len(h) != 6 || err != nil {
		return color.RGBA{}, fmt.Errorf("vision: not a colour: %q", s)
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, nil
}
