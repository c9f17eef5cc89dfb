package fakediscord

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// resolved is the "resolved" object of a command interaction: the users,
// members, channels and roles its options name.
type resolved struct {
	Users    map[string]any `json:"users,omitempty"`
	Members  map[string]any `json:"members,omitempty"`
	Channels map[string]any `json:"channels,omitempty"`
	Roles    map[string]any `json:"roles,omitempty"`
}

func (r *resolved) empty() bool {
	return len(r.Users)+len(r.Members)+len(r.Channels)+len(r.Roles) == 0
}

// splitSub splits "group sub" into its parts.
func splitSub(sub string) []string { return strings.Fields(sub) }

// buildOptions returns data.options for a command whose declared options
// are declared, with the subcommand path sub and the values of inv.
func (f *Fake) buildOptions(declared []*discordgo.ApplicationCommandOption, sub []string, inv Invocation, res *resolved) ([]map[string]any, error) {
	if len(sub) > 0 {
		for _, o := range declared {
			if o.Name == sub[0] && (o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
				inner, err := f.buildOptions(o.Options, sub[1:], inv, res)
				if err != nil {
					return nil, err
				}
				if inner == nil {
					inner = []map[string]any{}
				}
				return []map[string]any{{"name": o.Name, "type": o.Type, "options": inner}}, nil
			}
		}
		return nil, fmt.Errorf("no subcommand %q", sub[0])
	}
	var out []map[string]any
	used := 0
	for _, o := range declared {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			return nil, fmt.Errorf("a subcommand is required")
		}
		v, ok := inv.Options[o.Name]
		if !ok {
			if o.Required {
				return nil, fmt.Errorf("option %q is required", o.Name)
			}
			continue
		}
		used++
		value, err := f.encodeOption(o, v, inv, res)
		var rangeErr *outOfRange
		switch {
		case errors.As(err, &rangeErr):
			// The client refuses the value itself and says why; the
			// error reads "seats: must be between 2 and 4".
			return nil, fmt.Errorf("%s: %v", o.Name, err)
		case err != nil:
			return nil, fmt.Errorf("option %q: %v", o.Name, err)
		}
		out = append(out, map[string]any{"name": o.Name, "type": o.Type, "value": value})
	}
	if used != len(inv.Options) {
		var unknown []string
		for name := range inv.Options {
			if !declaredOption(declared, name) {
				unknown = append(unknown, name)
			}
		}
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown options %q", unknown)
	}
	return out, nil
}

func declaredOption(declared []*discordgo.ApplicationCommandOption, name string) bool {
	for _, o := range declared {
		if o.Name == name {
			return true
		}
	}
	return false
}

// encodeOption checks an option value against its declaration and returns
// it as Discord sends it.
func (f *Fake) encodeOption(o *discordgo.ApplicationCommandOption, v any, inv Invocation, res *resolved) (any, error) {
	switch o.Type {
	case discordgo.ApplicationCommandOptionString:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%T is not a string", v)
		}
		n := utf8.RuneCountInString(s)
		if (o.MinLength != nil && n < *o.MinLength) || (o.MaxLength > 0 && n > o.MaxLength) {
			lo := 0
			if o.MinLength != nil {
				lo = *o.MinLength
			}
			return nil, rangeError(float64(lo), o.MinLength != nil, float64(o.MaxLength), o.MaxLength > 0, " characters long")
		}
		return s, checkChoice(o, s)
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		x, ok := number(v)
		if !ok {
			return nil, fmt.Errorf("%T is not a number", v)
		}
		if o.Type == discordgo.ApplicationCommandOptionInteger && x != math.Trunc(x) {
			return nil, fmt.Errorf("%v is not an integer", v)
		}
		if (o.MinValue != nil && x < *o.MinValue) || (o.MaxValue != 0 && x > o.MaxValue) {
			lo := 0.0
			if o.MinValue != nil {
				lo = *o.MinValue
			}
			return nil, rangeError(lo, o.MinValue != nil, o.MaxValue, o.MaxValue != 0, "")
		}
		return x, checkChoice(o, x)
	case discordgo.ApplicationCommandOptionBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("%T is not a bool", v)
		}
		return b, nil
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		id, ok := v.(string)
		if !ok || id == "" {
			return nil, fmt.Errorf("want a user ID, got %v", v)
		}
		if res.Users == nil {
			res.Users, res.Members = map[string]any{}, map[string]any{}
		}
		res.Users[id] = f.wireUser(id)
		member := f.wireMember(id, "")
		delete(member, "user")
		res.Members[id] = member
		return id, nil
	case discordgo.ApplicationCommandOptionChannel:
		id, ok := v.(string)
		if !ok || id == "" {
			return nil, fmt.Errorf("want a channel ID, got %v", v)
		}
		if res.Channels == nil {
			res.Channels = map[string]any{}
		}
		res.Channels[id] = map[string]any{"id": id, "type": 0, "name": "channel-" + tail(id), "permissions": itoa64(inv.Permissions)}
		return id, nil
	case discordgo.ApplicationCommandOptionRole:
		id, ok := v.(string)
		if !ok || id == "" {
			return nil, fmt.Errorf("want a role ID, got %v", v)
		}
		if res.Roles == nil {
			res.Roles = map[string]any{}
		}
		res.Roles[id] = map[string]any{"id": id, "name": "role-" + tail(id), "permissions": "0", "position": 1, "color": 0, "hoist": false, "managed": false, "mentionable": true}
		return id, nil
	}
	return nil, fmt.Errorf("option type %d is not supported by the fake", o.Type)
}

// outOfRange is a value outside its option's min_value and max_value, or
// a string outside its min_length and max_length ("The minimum value
// permitted", "The minimum allowed length",
// developers/interactions/application-commands.mdx, option structure).
// Discord's client does not send such a command: it marks the option and
// says what it takes, which Error says as "must be between 2 and 4".
type outOfRange struct{ msg string }

func (e *outOfRange) Error() string { return e.msg }

// rangeError says what an option takes: between lo and hi, at least lo or
// at most hi, with unit after the numbers.
func rangeError(lo float64, hasLo bool, hi float64, hasHi bool, unit string) error {
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch {
	case hasLo && hasHi:
		return &outOfRange{"must be between " + num(lo) + " and " + num(hi) + unit}
	case hasLo:
		return &outOfRange{"must be at least " + num(lo) + unit}
	default:
		return &outOfRange{"must be at most " + num(hi) + unit}
	}
}

// number converts any integer or float value to float64.
func number(v any) (float64, bool) {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(r.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(r.Uint()), true
	case reflect.Float32, reflect.Float64:
		return r.Float(), true
	}
	return 0, false
}

// checkChoice checks that v is one of the option's choices, if it has any.
func checkChoice(o *discordgo.ApplicationCommandOption, v any) error {
	if len(o.Choices) == 0 {
		return nil
	}
	for _, c := range o.Choices {
		if c.Value == v {
			return nil
		}
		if x, ok := number(c.Value); ok && x == v {
			return nil
		}
	}
	return fmt.Errorf("%v is not one of the choices", v)
}
