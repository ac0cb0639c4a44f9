package main

import (
	"regexp"

	"github.com/farkle/farkle/lang"
)

// Errors a command passes on from elsewhere (the system's, package dice's,
// and those of the server's and the database's flags, whose files other
// parts of the project keep) come in English. phrases match them, each
// with the parts it takes named, and a language other than English says
// them by the catalogue's text of key; English keeps the errors' own
// words. TestErrorsNorwegian finds any that is missed.
var phrases = []struct {
	re  *regexp.Regexp
	key string
}{
	// The system's.
	{regexp.MustCompile(`open (?P<file>[^:]+): no such file or directory`), "cli.ph.noFile"},
	{regexp.MustCompile(`open (?P<file>[^:]+): permission denied`), "cli.ph.noAccess"},
	{regexp.MustCompile(`read (?P<file>[^:]+): is a directory`), "cli.ph.isDir"},
	// Package dice's, and the throws the rules cannot take.
	{regexp.MustCompile(`(?P<face>'[^']*'|\S+) is not a die face \(faces are 1 to 6\)`), "cli.ph.notFace"},
	{regexp.MustCompile(`(?P<die>'[^']*'|\S+) is not a die \(write dice as 113556, 1 1 3 5 5 6 or 1,1,3,5,5,6\)`), "cli.ph.notDie"},
	{regexp.MustCompile(`(?P<throw>"[^"]*") has more than 6 dice \(a throw has 1 to 6 dice\)`), "cli.ph.moreThan6"},
	{regexp.MustCompile(`no dice \(a throw has 1 to 6 dice\)`), "cli.ph.noDice"},
	{regexp.MustCompile(`(?P<n>\d+) dice \(a throw has 1 to 6 dice\)`), "cli.ph.nDice"},
	{regexp.MustCompile(`(?P<throw>"[^"]*") has (?P<n>\d+) dice but the rules (?P<rules>\S+) play with (?P<dice>\d+) \(a throw has 1 to \d+ dice\)`), "cli.ph.tooManyDice"},
	// The rules' (a rule file's fields).
	{regexp.MustCompile(`unknown field \(allowed at the top level: (?P<fields>[^)]*)\)`), "cli.ph.fieldTop"},
	{regexp.MustCompile(`unknown field \(allowed in (?P<table>\[[^\]]*\]): (?P<fields>[^)]*)\)`), "cli.ph.fieldIn"},
	{regexp.MustCompile(`unknown field\b`), "cli.ph.field"},
	{regexp.MustCompile(`must be a whole number from 0 to (?P<n>\d+) \(got (?P<got>[^)]*)\)`), "cli.ph.wholeNumber"},
	{regexp.MustCompile(`must not be negative \(got (?P<got>-?\d+)\)`), "cli.ph.negative"},
	{regexp.MustCompile(`at most game\.target (?P<n>\d+) \(got (?P<got>-?\d+)\)`), "cli.ph.mostTarget"},
	{regexp.MustCompile(`at most (?P<n>\d+) \(got (?P<got>-?\d+)\)`), "cli.ph.most"},
	{regexp.MustCompile(`(?P<got>"[^"]*") is not allowed \(allowed: (?P<allowed>[^)]*)\)`), "cli.ph.notAllowed"},
	{regexp.MustCompile(`must be from min_players \((?P<lo>\d+)\) to (?P<hi>\d+) \(got (?P<got>-?\d+)\)`), "cli.ph.fromMin"},
	{regexp.MustCompile(`must be 0 \(no cap\) to (?P<hi>\d+) \(got (?P<got>-?\d+)\)`), "cli.ph.noCap"},
	{regexp.MustCompile(`must be (?P<lo>\d+) to (?P<hi>\d+) \(got (?P<got>-?\d+)\)`), "cli.ph.range"},
	{regexp.MustCompile(`must be positive \(got (?P<got>-?\d+)\)`), "cli.ph.positive"},
	{regexp.MustCompile(`face (?P<face>"[^"]*") is not a die face \(allowed: "1" to "6"\)`), "cli.ph.ruleFace"},
	{regexp.MustCompile(`needs (?P<n>\d+) dice but the game has dice = (?P<dice>\d+) \(set it to 0\)`), "cli.ph.needsDice"},
	{regexp.MustCompile(`no meld scores any points: every throw would be a farkle`), "cli.ph.noMeld"},
	{regexp.MustCompile(`must list 6 values, for faces 1 to 6 \(got (?P<n>\d+)\)`), "cli.ph.sixValues"},
	{regexp.MustCompile(`(?P<file>\S+) is longer than (?P<n>\d+) bytes, the most a rule file may be`), "cli.ph.ruleFileSize"},
	// Presets a --compare or a rule file names.
	{regexp.MustCompile(`unknown preset (?P<spec>"[^"]*") \(presets: (?P<presets>[^)]*)\)`), "cli.ph.unknownPreset"},
	// The server's flags.
	{regexp.MustCompile(`unexpected argument (?P<arg>"[^"]*") \((?P<cmd>[a-z ]+) takes only flags\)`), "cli.ph.onlyFlags"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): must be more than 0`), "cli.ph.moreThan0"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): must be (?P<n>\d+) or more`), "cli.ph.orMore"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): must be at least (?P<n>\d+) with (?P<other>--[a-z-]+ \S+)`), "cli.ph.atLeastWith"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): at least (?P<n>\d+)`), "cli.ph.atLeast"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): at most (?P<n>\S+)`), "cli.ph.atMost"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): cannot be negative \(0 turns it off\)`), "cli.ph.notNegativeOff"},
	{regexp.MustCompile(`(?P<flags>--ssh-per-key, --ssh-per-address and --ssh-idle) cannot be negative`), "cli.ph.notNegative"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): must be less than (?P<other>--[a-z-]+ \S+), or its answers could not be written`), "cli.ph.lessThanWrite"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>\S+): a size from (?P<lo>\S+) to (?P<hi>\S+), e\.g\. (?P<eg>\S+)`), "cli.ph.sizeRange"},
	{regexp.MustCompile(`(?P<value>"[^"]*") is not a size: want bytes or a number with a unit, like 512MiB or 1GiB`), "cli.ph.notSize"},
	{regexp.MustCompile(`(?P<a>--[a-z-]+) and (?P<b>--[a-z-]+) go together`), "cli.ph.together"},
	{regexp.MustCompile(`(?P<a>--[a-z-]+) and (?P<b>--[a-z-]+): one or the other`), "cli.ph.oneOrOther"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+): only with (?P<a>--[a-z-]+) or (?P<b>--[a-z-]+)`), "cli.ph.onlyWith"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+): (?P<n>\d+) names, at most (?P<most>\d+)`), "cli.ph.names"},
	{regexp.MustCompile(`(?P<flag>--[a-z-]+) (?P<value>"[^"]*"): an https:// URL`), "cli.ph.https"},
	// The database's commands.
	{regexp.MustCompile(`db takes a subcommand: copy, backup or check \(farkle db SUBCOMMAND -h tells more\)`), "cli.ph.dbSub"},
	{regexp.MustCompile(`db copy needs --from and --to`), "cli.ph.dbCopyNeeds"},
	{regexp.MustCompile(`db backup needs --to FILE`), "cli.ph.dbBackupNeeds"},
	{regexp.MustCompile(`db check takes one database: a SQLite file or a postgres:// URL`), "cli.ph.dbCheckOne"},
	{regexp.MustCompile(`(?P<file>\S+): no such database file \(the source is the SQLite file farkle serve --db wrote\)`), "cli.ph.noDBSource"},
	{regexp.MustCompile(`(?P<file>\S+): no such database file`), "cli.ph.noDB"},
	{regexp.MustCompile(`the source (?P<db>\S+) cannot be read out: copy from a SQLite file`), "cli.ph.dbSource"},
	{regexp.MustCompile(`the target (?P<db>\S+) cannot take a copy: copy to a PostgreSQL URL(?: \(postgres://…\))?`), "cli.ph.dbTarget"},
	{regexp.MustCompile(`--from (?P<db>\S+): farkle db backup copies a SQLite file; back up PostgreSQL with pg_dump \(docs/OPERATIONS\.md\)`), "cli.ph.dbBackupPG"},
	{regexp.MustCompile(`--to (?P<file>\S+) is the database itself`), "cli.ph.dbItself"},
	{regexp.MustCompile(`--to (?P<file>\S+) exists and is not a file`), "cli.ph.dbNotFile"},
	{regexp.MustCompile(`--to (?P<file>\S+) exists: pass --force to replace it`), "cli.ph.dbExists"},
}

// phrased is s with the errors of phrases in it said in the language of
// c; English is s.
func phrased(c *lang.Catalogue, s string) string {
	if c.Code == lang.Default {
		return s
	}
	for _, p := range phrases {
		s = p.re.ReplaceAllStringFunc(s, func(m string) string {
			sub := p.re.FindStringSubmatch(m)
			var kv []any
			for i, name := range p.re.SubexpNames() {
				if name != "" {
					kv = append(kv, name, sub[i])
				}
			}
			return c.Msg(p.key, kv...)
		})
	}
	return s
}
