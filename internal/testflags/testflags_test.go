package testflags

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSwitches runs this test binary again with each way of setting the
// switches and reads what Long and Update say there.
func TestSwitches(t *testing.T) {
	if os.Getenv("TESTFLAGS_CHILD") != "" {
		t.Logf("long=%v update=%v", Long(), Update())
		return
	}
	for _, c := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, nil, "long=false update=false"},
		{[]string{"FARKLE_LONG_TESTS=1"}, nil, "long=true update=false"},
		{[]string{"FARKLE_UPDATE_GOLDEN=true"}, nil, "long=false update=true"},
		{nil, []string{"-long", "-update"}, "long=true update=true"},
		{[]string{"FARKLE_LONG_TESTS=1"}, []string{"-long=false"}, "long=false update=false"},
		{[]string{"FARKLE_LONG_TESTS=no"}, nil, "long=false update=false"},
	} {
		args := append([]string{"-test.run=^TestSwitches$", "-test.v"}, c.args...)
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "TESTFLAGS_CHILD=1", "FARKLE_LONG_TESTS=", "FARKLE_UPDATE_GOLDEN=")
		cmd.Env = append(cmd.Env, c.env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v %v: %v\n%s", c.env, c.args, err, out)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("%v %v: want %q in\n%s", c.env, c.args, c.want, out)
		}
	}
}
