package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
)

func init() {
	register(&command{
		name:    "version",
		args:    "",
		summary: "print the version of farkle: its module version and the VCS revision it was built from",
		run:     runVersion,
	})
}

const versionHelp = `One line: the module version (a tag, a pseudo-version, or (devel) for a
build from a checkout), the VCS revision and its time when the build recorded
them (go build stamps them unless -buildvcs=false), "modified" when the
checkout had local changes, and the Go version. farkle --version is the same.`

func runVersion(ctx context.Context, e *env, args []string) error {
	c := commands["version"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.version.details", versionHelp))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.noArgs", "cmd", "version", "got", strconv.Quote(strings.Join(fs.Args(), " ")))
	}
	info, ok := debug.ReadBuildInfo()
	_, err := fmt.Fprintln(e.stdout, versionText(info, ok))
	return err
}

// versionText describes the build info (ok false: none was embedded), e.g.
// "farkle v1.2.0 (revision 0123abcd…, 2026-12-01T12:00:00Z, modified) go1.26.8".
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "farkle (unknown version: no build information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var vcs []string
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if r := settings["vcs.revision"]; r != "" {
		vcs = append(vcs, "revision "+r)
		if t := settings["vcs.time"]; t != "" {
			vcs = append(vcs, t)
		}
		if settings["vcs.modified"] == "true" {
			vcs = append(vcs, "modified")
		}
	} else {
		vcs = append(vcs, "no VCS revision recorded")
	}
	return fmt.Sprintf("farkle %s (%s) %s", version, strings.Join(vcs, ", "), info.GoVersion)
}
