package fakediscord

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
)

// maxFileSize is Discord's upload limit per file for a server without
// boosts (attachment_size_limit in interaction payloads).
const maxFileSize = 25 << 20

// readBody reads the JSON payload and the files of r into c.
func readBody(r *http.Request, c *Call) *apiError {
	return readPayload(r.Header.Get("Content-Type"), r.Body, c)
}

// readPayload reads a JSON or multipart/form-data body of the given
// content type into c.
func readPayload(contentType string, body io.Reader, c *Call) *apiError {
	mediaType, params, _ := mime.ParseMediaType(contentType)
	if mediaType == "multipart/form-data" {
		return readMultipart(multipart.NewReader(body, params["boundary"]), c)
	}
	data, err := readAll(body)
	if err != nil {
		return invalidJSON()
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if !json.Valid(data) {
		return invalidJSON()
	}
	c.Body = data
	return nil
}

// readMultipart reads payload_json and files[n] parts, as discordgo's
// MultipartBodyWithJSON writes them.
func readMultipart(mr *multipart.Reader, c *Call) *apiError {
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return invalidJSON()
		}
		data, err := readAll(part)
		if err != nil {
			return invalidJSON()
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			if !json.Valid(data) {
				return invalidJSON()
			}
			c.Body = data
		case name == "file" || strings.HasPrefix(name, "files["):
			if len(data) > maxFileSize {
				return &apiError{status: http.StatusRequestEntityTooLarge, Code: codeEntityTooLarge, Message: "Request entity too large"}
			}
			c.Files = append(c.Files, File{
				Field:       name,
				Name:        part.FileName(),
				ContentType: part.Header.Get("Content-Type"),
				Data:        data,
			})
		}
	}
}

// readAll reads r to its end into a pooled buffer and returns a copy of
// exactly its length: io.ReadAll's doubling from 512 bytes cost the fake
// a tenth of its CPU in BenchmarkClickRate, on the boards of every answer
// and post.
func readAll(r io.Reader) ([]byte, error) {
	buf := readPool.Get().(*bytes.Buffer)
	defer readPool.Put(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

var readPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func invalidJSON() *apiError {
	return &apiError{status: http.StatusBadRequest, Code: codeInvalidJSON, Message: "The request body contains invalid JSON."}
}

// fields returns the top-level fields of a JSON object payload. A missing
// body gives no fields.
func fields(body json.RawMessage) (map[string]json.RawMessage, *apiError) {
	out := map[string]json.RawMessage{}
	if len(body) == 0 {
		return out, nil
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, invalidForm("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
	}
	return out, nil
}

// isNull reports whether raw is absent or the JSON null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// nonEmptyArray reports whether raw is a JSON array with elements.
func nonEmptyArray(raw json.RawMessage) bool {
	var list []json.RawMessage
	return json.Unmarshal(raw, &list) == nil && len(list) > 0
}
