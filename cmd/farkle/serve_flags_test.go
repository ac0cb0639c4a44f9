package main

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// numericFlag reports whether a flag holds a number, a duration or a size
// (its default reads as one).
func numericFlag(f *flag.Flag) bool {
	if _, err := strconv.ParseFloat(f.DefValue, 64); err == nil {
		return true
	}
	if _, err := time.ParseDuration(f.DefValue); err == nil {
		return true
	}
	var size byteSizeFlag
	return size.Set(f.DefValue) == nil
}

// TestServeFlagsZero: 0 does what the help of every numeric flag of farkle
// serve says. A flag whose help says what 0 means ("(0: no cap)") takes it,
// and a limit there said to go (no cap, no limit, never, none) is off in
// the server's options, not the default; a flag whose help says nothing of
// 0 refuses it as bad usage naming the flag. So no flag takes 0 silently,
// and none says 0 turns it off and then refuses it; and every rate and cap
// is one that 0 turns off, as the docs say (--ws-rate was refused).
func TestServeFlagsZero(t *testing.T) {
	dir := t.TempDir()
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string {
		switch k {
		case "FARKLE_CACHE_DIR":
			return dir
		case "GOMEMLIMIT": // set: the solver's flags leave the test's memory limit alone
			return "off"
		}
		return ""
	}}
	parse := func(args ...string) (*serveMain, error) {
		fs, configure := serveFlags(e)
		// --ssh: the SSH flags are read only with an SSH listener.
		if err := parseFlags(fs, append([]string{"--ssh", "127.0.0.1:0", "--db", dir + "/farkle.db"}, args...)); err != nil {
			return nil, err
		}
		m, err := configure()
		if err == nil && m.Tables != nil {
			m.Tables.Close()
		}
		return m, err
	}
	def, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := serveFlags(e)
	zeroOK, refused := 0, 0
	fs.VisitAll(func(f *flag.Flag) {
		if !numericFlag(f) {
			return
		}
		arg := "--" + f.Name
		// The docs: "a rate or cap of 0 turns it off". The bounds of
		// memory (the tracked clients, a message's, the headers' and a local
		// game's size) are not limits one may turn off.
		rateOrCap := strings.Contains(f.Name, "rate") || strings.HasPrefix(f.Name, "max-") || strings.Contains(f.Name, "-per-") || f.Name == "ws-max"
		if memory := map[string]bool{"rate-clients": true, "max-message": true, "max-header-bytes": true, "max-local-game-bytes": true}; rateOrCap && !memory[f.Name] && !strings.Contains(f.Usage, "(0: ") {
			t.Errorf("%s is a rate or a cap, but its help does not say that 0 turns it off: %q", arg, f.Usage)
		}
		m, err := parse(arg, "0")
		if !strings.Contains(f.Usage, "(0: ") {
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(ue.msg, arg) {
				t.Errorf("%s 0, whose help says nothing of 0: %v, want bad usage naming %s", arg, err, arg)
			}
			refused++
			return
		}
		if err != nil {
			t.Errorf("%s 0: %v, but its help says %q", arg, err, f.Usage)
			return
		}
		zeroOK++
		if strings.HasPrefix(f.Name, "solve") || strings.HasPrefix(f.Name, "three-") || strings.HasSuffix(f.Name, "cache-memory") || f.Name == "cache-dir-max" {
			return // the solver's limits: serve_solve_test.go
		}
		if reflect.DeepEqual(m.Options, def.Options) && m.SSH == def.SSH && m.BotDelay == def.BotDelay && m.Explore == def.Explore {
			t.Errorf("%s 0 configures the same server as the default: 0 must mean what its help says (%q)", arg, f.Usage)
		}
		ov, dv := reflect.ValueOf(m.Options), reflect.ValueOf(def.Options)
		for i := range ov.NumField() {
			if !ov.Field(i).CanInt() && !ov.Field(i).CanFloat() {
				continue
			}
			if changed := !reflect.DeepEqual(ov.Field(i).Interface(), dv.Field(i).Interface()); changed && !negative(ov.Field(i)) {
				t.Errorf("%s 0 sets Options.%s to %v: a limit turned off is negative there (0 is the default)", arg, ov.Type().Field(i).Name, ov.Field(i))
			}
		}
	})
	if zeroOK < 15 || refused < 5 {
		t.Fatalf("%d flags take 0 and %d refuse it: the walk over the flags missed some", zeroOK, refused)
	}
	if m, err := parse("--ws-rate", "0"); err != nil || m.Options.ActionRate >= 0 {
		t.Fatalf("--ws-rate 0: %v, options %+v", err, m)
	}
}

func negative(v reflect.Value) bool {
	if v.CanInt() {
		return v.Int() < 0
	}
	return v.Float() < 0
}
