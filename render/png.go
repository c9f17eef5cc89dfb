package render

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"runtime"
	"runtime/metrics"
	"sync"

	"github.com/klauspost/compress/flate"
)

// A board's PNG is an 8-bit palette image whose rows are not filtered (for
// palette images filter "none" deflates best). Deflate dominates the cost,
// so the paletted pixels are kept in the layout the zlib stream wants: each
// row preceded by its filter byte (0). Deflate then reads them in place.

// rows is a paletted image laid out as PNG's filtered scanlines: raw holds
// each row's filter byte followed by its pixels, and p's Pix points into it.
type rows struct {
	raw []byte
	p   *image.Paletted
}

// newRows returns rows for an image of rectangle r (not empty) in palette pal,
// all pixels index 0.
func newRows(r image.Rectangle, pal color.Palette) rows {
	raw := make([]byte, (r.Dx()+1)*r.Dy())
	return rows{raw: raw, p: &image.Paletted{Pix: raw[1:], Stride: r.Dx() + 1, Rect: r, Palette: pal}}
}

// clone returns a copy of rs.
func (rs rows) clone() rows {
	raw := bytes.Clone(rs.raw)
	return rows{raw: raw, p: &image.Paletted{Pix: raw[1:], Stride: rs.p.Stride, Rect: rs.p.Rect, Palette: rs.p.Palette}}
}

// encodePNG writes p as an 8-bit palette PNG with the first colors entries
// of its palette.
func encodePNG(p *image.Paletted, colors int) ([]byte, error) {
	rs := newRows(p.Rect, p.Palette)
	for y := p.Rect.Min.Y; y < p.Rect.Max.Y; y++ {
		o := p.PixOffset(p.Rect.Min.X, y)
		copy(rs.p.Pix[rs.p.PixOffset(p.Rect.Min.X, y):], p.Pix[o:o+p.Rect.Dx()])
	}
	return encodeRows(rs, colors)
}

// encodeRows writes rs as an 8-bit palette PNG with the first colors
// entries of its palette.
//
// When cores are idle the rows are cut into bands compressed in parallel,
// each an independent deflate stream ended by a sync flush; joined and
// closed by an empty final block they make one valid zlib stream (as pigz
// does), and the bands' Adler-32 checksums are combined. When the process
// is busy (every core running or with goroutines waiting to run) parallel
// bands would only queue behind other work and cost a little more in
// total, so the image is deflated in one stream, straight into the output.
func encodeRows(rs rows, colors int) ([]byte, error) {
	return encodeBands(rs, colors, bandsFor(rs.p.Rect.Dy()))
}

// bandsFor returns how many bands to deflate h rows in: one, plus one per
// idle core, at most 4 and none shorter than 64 rows.
func bandsFor(h int) int { return min(idleProcs()+1, 4, max(1, h/64)) }

// encodeBands is encodeRows deflating in parts bands.
func encodeBands(rs rows, colors, parts int) ([]byte, error) {
	p := rs.p
	w, h := p.Rect.Dx(), p.Rect.Dy()
	parts = min(max(parts, 1), h)
	var out bytes.Buffer
	// A board deflates to 7 to 9 % of its pixels: room for the largest
	// without growing the buffer, and little more.
	out.Grow(len(rs.raw)/10 + 3*colors + 128)
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, colour type 3: palette
	writeChunk(&out, "IHDR", ihdr[:])
	var plte [3 * 256]byte
	for i, c := range p.Palette[:colors] {
		r := color.RGBAModel.Convert(c).(color.RGBA)
		plte[3*i], plte[3*i+1], plte[3*i+2] = r.R, r.G, r.B
	}
	writeChunk(&out, "PLTE", plte[:3*colors])

	// IDAT: its length is written once the data is known.
	start := out.Len()
	out.Write([]byte{0, 0, 0, 0, 'I', 'D', 'A', 'T'})
	out.Write([]byte{0x78, 0x5E}) // zlib header: deflate, 32K window, fast (levels 2 to 5)
	var adler uint32
	if parts == 1 {
		fw := getFlate()
		fw.ResetDict(&out, nil)
		_, err := fw.Write(rs.raw)
		if err == nil {
			err = fw.Close()
		}
		flateSpares.put(fw)
		if err != nil {
			return nil, err
		}
		adler = adler32Sum(rs.raw)
	} else {
		var err error
		if adler, err = deflateBands(&out, rs.raw, w+1, h, parts); err != nil {
			return nil, err
		}
	}
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], adler)
	out.Write(sum[:])
	b := out.Bytes()
	idat := b[start+4:]
	binary.BigEndian.PutUint32(b[start:], uint32(len(idat)-4))
	binary.BigEndian.PutUint32(sum[:], crc32.ChecksumIEEE(idat))
	out.Write(sum[:])
	writeChunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

// deflateBands deflates raw, h rows of stride bytes, as parts bands in
// parallel, appends them to out as one deflate stream and returns the
// Adler-32 checksum of raw. Each band but the first starts with the 32 KB
// before it as its dictionary (as pigz does), so that its first rows still
// find their matches in the rows above: the bands cost almost no size.
func deflateBands(out *bytes.Buffer, raw []byte, stride, h, parts int) (uint32, error) {
	type band struct {
		out   *bytes.Buffer
		adler uint32
		n     int
		err   error
	}
	bands := make([]band, parts)
	var wg sync.WaitGroup
	for i := range bands {
		from := stride * (h * i / parts)
		data := raw[from : stride*(h*(i+1)/parts)]
		dict := raw[max(0, from-maxDistance):from]
		wg.Go(func() {
			b := &bands[i]
			b.adler, b.n = adler32Sum(data), len(data)
			b.out = getBand()
			fw := getFlate()
			defer flateSpares.put(fw)
			fw.ResetDict(b.out, dict)
			if _, err := fw.Write(data); err != nil {
				b.err = err
				return
			}
			b.err = fw.Flush()
		})
	}
	wg.Wait()
	adler := uint32(1)
	var err error
	for i := range bands {
		if bands[i].err != nil && err == nil {
			err = bands[i].err
		}
		out.Write(bands[i].out.Bytes())
		bandSpares.put(bands[i].out)
		adler = adler32Combine(adler, bands[i].adler, bands[i].n)
	}
	out.Write([]byte{0x03, 0x00}) // an empty final block with fixed codes
	return adler, err
}

// idleProcs returns how many of GOMAXPROCS run no goroutine with none
// waiting to run: the cores a parallel deflate could use without delaying
// other work. The caller's own goroutine counts as running.
func idleProcs() int {
	s := make([]metrics.Sample, 2)
	s[0].Name, s[1].Name = "/sched/goroutines/running:goroutines", "/sched/goroutines/runnable:goroutines"
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	busy := int(s[0].Value.Uint64() + s[1].Value.Uint64())
	return max(0, runtime.GOMAXPROCS(0)-busy)
}

// deflateLevel is klauspost/compress's level 4. Over a game's 640 px
// boards (BenchmarkPNGGame) its fast matcher takes 1.2 ms where the standard
// library's level 5 took 2.3 ms or more for the same bytes; level 1 would
// save another 0.5 ms but make the average board 32.3 KB, over the 30 KB
// the bot's boards keep to, where level 4 keeps 29.96 KB.
const deflateLevel = 4

// maxDistance is how far back deflate may refer.
const maxDistance = 32 << 10

// spareFlates is how many compressors and band buffers wait between
// boards: a board's bands (at most 4) and one more board's.
const spareFlates = 8

var (
	bandSpares  = newSpares[*bytes.Buffer](spareFlates)
	flateSpares = newSpares[*flate.Writer](spareFlates)
)

// getBand returns an empty buffer for a band.
func getBand() *bytes.Buffer {
	if b, ok := bandSpares.get(); ok {
		b.Reset()
		return b
	}
	return new(bytes.Buffer)
}

// getFlate returns a compressor at deflateLevel, to be reset on use and
// put back in flateSpares.
func getFlate() *flate.Writer {
	if fw, ok := flateSpares.get(); ok {
		return fw
	}
	fw, _ := flate.NewWriter(nil, deflateLevel)
	return fw
}

func writeChunk(b *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	b.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	b.WriteString(kind)
	b.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	b.Write(n[:])
}

// adler32Combine returns the Adler-32 checksum of the concatenation of two
// byte strings from their checksums a1 and a2 and the length n2 of the
// second (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, n2 int) uint32 {
	const base = 65521
	rem := uint32(n2 % base)
	sum1 := a1 & 0xffff
	sum2 := rem * sum1 % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}
