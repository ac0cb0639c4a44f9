// Package solve holds the exact solvers of Farkle for any rule set: the solo
// solver (the turn strategy of most expected points, or with a farkle penalty
// of the most long-run average points per turn), the duel solver (the
// two-player strategy of the highest probability of winning) and the
// three-player solver (see Three players).
//
// # Units
//
// Turn totals and scores are handled in units of the rule set's point unit:
// the greatest common divisor of every keep's points, the six-dice-nothing
// bonus and the farkle penalty (50 for every preset). Thresholds (target,
// entry and bank minimums) are rounded up to the unit. Positions given in
// points that are not multiples of the unit are rejected with ErrPosition.
//
// # Solo
//
// SolveSolo returns a Policy: ExpectedTurn, BankAt(n) / BankAtStreak(s, n)
// (the least total from which banking is at least as good as throwing n
// dice), EntryBankAt and EntryCost (getting on the board under an entry
// minimum), Value (before a throw), Choice (bank or throw after a keep) and
// Options (every keep of a throw with its value). The turn totals are bounded
// where banking provably becomes optimal (see model.soloTurn); the streak and
// entry states are solved by policy iteration with an exact linear solve, to
// a residual below 1e-11 units.
//
// # Duel
//
// SolveDuel returns a Table of the probability that the player to move wins
// at the start of their turn, for every pair of scores below the target and
// every pair of farkle streaks (A*A*c*c values for A scores in units and c
// streak states). Table.Value, Table.Choice and Table.Options recompute any
// in-turn position from the table (one turn's dynamic programme: tens to
// hundreds of microseconds); Table.WinProbability reads it. With the
// final-round ending, positions where the other player has reached the target
// are the last turn of the game and are answered too.
//
// Order of solution: score pairs by decreasing sum, so that every bank reads
// solved pairs. A farkle hands the same scores to the other player, a cycle
// of the pair that is solved exactly in the pair's job (each value is linear
// in its farkle value for a fixed policy: the linear system is solved and the
// turns re-solved until no value moves by 1e-12). A farkle penalty lowers a
// score, so reads of lower sums use the previous sweep (in the first sweep, a
// linear extrapolation of the solved pairs of the same lead with both scores
// higher, or near the target of the solved scores above; then the pairs
// within two penalties of the top sum, whose guesses are the worst, are
// solved once more) and sweeps repeat until a sweep changes no value by more
// than 1e-8 and the error left, estimated from the geometric shrinking of
// the changes, is below 1e-10 (classic: 6 sweeps; see sweepStop). Within a turn the keeps of a throw that leave the
// same dice are pruned to the one of most points wherever the after-keep
// values do not decrease over the totals it can reach (checked as it goes;
// they do decrease below the target in final-round games with a penalty, and
// there all keeps are compared), and a throw is not summed at all where a
// bound (each keep worth at most the best after-keep value at its most
// points) already shows that banking is at least as good (model.banked:
// a fifth of the work with a final round or a penalty, same values to the
// last bit). Without a penalty a pair's first pass starts from a parabola
// through three solved neighbours. Final-round
// turns above the target are followed until banking is provably best (the
// other's chance to pass the lead is below what the next farkle would cost)
// or that chance is below 1e-13.
//
// Decisions where the rules are silent:
//   - A tie counts 1/2 for each player, both under "roll-off" (fair) and
//     under "share" (both win: counting it 1/2 keeps the game zero-sum).
//   - Rules allowing more than two players are solved for two; rules needing
//     more (min_players > 2) or allowing one only are refused (ErrRules).
//   - The solo long-run average assumes a score large enough that a penalty
//     is always taken in full; a player still to enter loses nothing to one.
//
// Engine behaviours relied on (the solvers do not import engine/): a throw
// without a keep is a farkle except six dice under six_dice_nothing (bonus,
// must throw six again); one keep per throw; hot dice throw rules.Dice dice;
// Bank needs total >= bank_minimum and, at score 0, >= entry_minimum; with
// no bank and no throw possible the turn ends scoring nothing without a
// farkle and the streak is unchanged; a bank resets the streak; at the
// penalty count the score loses min(points, score) and the streak restarts;
// the first bank to the target wins at once (immediate) or gives the other
// player exactly one more turn, after which the higher score wins. There
// is no cap on the game's length (game.max_turns, or resignations): the
// solvers work on r.ForSolver(), so rules that differ only in the cap share
// their tables, cache files included.
//
// # Cost
//
// A turn is one dynamic programme over the totals from its start to where
// banking is provably best (about A-a totals, plus the final round's reach
// above the target), each total summing the pruned keeps of every number
// of dice (classic: 600 options a total, 316 of them for six dice; the
// sums of five and six dice are nine tenths of the work and are almost
// never wasted on a throw banking beats). A sweep solves every start of a
// turn once where the streaks climb within a pair (a farkle penalty: the
// pair's states form a chain) and about 2.6 times where a pair is a cycle
// (no penalty: a pass with derivatives, then one that confirms the
// policies): some A*A*c*c*A/2 totals a sweep. With a penalty there are
// about six sweeps; each shrinks the change by 0.003 to 0.04, roughly the
// chance that a player farkles as many turns in a row as the penalty
// counts, and the change is spread over every pair (not a few slow ones),
// so sweeps cannot be skipped pair by pair; nor are they one mode that
// an extrapolation could jump over (classic: a state's change over the
// one before it ranges from -0.1 to 0.14, mostly within 0.02 of 0, and
// an Anderson step over the last two sweeps gets a weight near 0.001). A
// classic sweep sums a throw about 14 million times (eight lanes each);
// 30% of the throws summed, lane by lane, are worth no more than banking,
// which the bound (model.banked) does not catch. A turn's values cannot be
// shared between starts: for the same other player the bank values are
// the same function of the mover's score from every start, but the value
// of a farkle differs from start to start and the decisions change with it
// at totals up to the top, so the totals solved for one start do not give
// another's exactly. TestDuelAgainstReference compares the tables with a
// plain solver (every keep, every total, no skipping), and the golden
// tables with the solver before its speed-ups.
//
// Measured for the next attempt (classic at its target): from the third
// sweep on, fewer than one value in 200 is the same to the last bit as in
// the sweep before (the sixth still moves values by up to 1e-9), so no
// pair's job can be skipped without changing the table. A solve sums 11.9
// billion lane options (six dice 62%, five 26%); a six-dice sum is worth
// more than banking in 7.5 of its 8 lanes, and the sums all of whose
// lanes bank are 7% of the options. The kernel is at the load bound: the
// bounds of two numbers of dice side by side (four sums in flight) and a
// profile-guided build were no faster. The eight lanes in one AVX-512
// vector (the same roundings) summed six dice 7% faster on an earlier
// machine; on one whose vector units are 512 bits wide (an AMD EPYC of
// the Zen 5 kind) the sums take a quarter less time (BenchmarkLaneSums:
// 77 ns against 102 ns) and the solves 12-15% (below), so a CPU with
// AVX512F runs the sums and the bound that way (simd, bestSIMD). The score-0 pairs'
// states filled by dependency levels take as many fills as by streak sum
// (the farkles chain 2c-1 of them), and the bound (boundAll) succeeds on
// 99% of the lanes it tries. BenchmarkSolveDuelPenalty measures a sweep's
// CPU on one worker and two.
//
// Turns side by side: the pairs of one score sum are independent, so the
// sweeps solve up to eight of them at once (jobLanes), the k-th state of
// each in one fill (fillLanes) whose in-turn arrays interleave the eight
// turns value by value. One pass over a throw's options then reads each
// option's offset once for eight values and keeps eight independent sums;
// on amd64 with AVX2 (the Go forms elsewhere, or with -tags purego) the
// sums, the after-keep row and the banking bound are vector routines
// (lanes_amd64.s), and eight lanes are two vectors so that two additions
// are in flight; with AVX512F the sums and the bound are one vector of
// eight (lanes512_amd64.s). The lanes keep their own tops, pruning, skips and order of
// sums, so every value is the same to the last bit as a pair solved alone
// (TestLanesSameAsAlone, TestLaneSums, TestKeepRow). A pair solved alone
// (the diagonal; a score of 0 under a penalty, whose penalty lands in its
// own pair) fills the states of one streak sum side by side (jobLevels):
// they read none of each other. After the first sweep with a penalty of two
// units or more, a job of the sum below starts as soon as the jobs of its
// sum that it reads are done (overlapped): it reads exactly what it would
// one sum at a time, so the table does not depend on the number of workers.
// The kernel reads two vectors and half an offset an option: about 1.6
// cycles an option for eight turns. The routines use only VEX-encoded
// instructions on vector registers (TestAsmAllVEX): a legacy SSE MOVQ in
// the bound and keep-row routines cost a state transition (about 300 ns
// here) each call, a third of a classic duel's CPU time (the AVX-512
// routines are EVEX-encoded: the same rule holds). On two cores (no cache, a shared
// machine): cardgames 0.8 s, pocket-farkel 0.7-0.9 s, classic 6-6.6 s,
// farkle-dice 8.6-10.7 s; the solver one pair at a time took 2.5-2.9,
// 2.8-3.2, 29-41 and 45-57 s in the same sessions. On the Zen 5 machine,
// three rounds alternating (BenchmarkSolveDuelPenalty, two workers):
// classic 4.46-4.49 s with AVX2, 3.94-3.95 s with AVX-512; farkle-dice
// 6.46-6.70 s and 5.63-5.69 s.
//
// # Three players
//
// SolveThree returns a Three: for every triple of scores below the target
// (A^3 triples of A scores in units, stored in turn order from the mover, so
// one triple serves the three seats), the probabilities that the mover, the
// next seat and the one after win at the start of the mover's turn. Each
// player maximises its own chance to win; a tie at the end among k players
// counts 1/k for each of them (a roll-off is fair, and a shared win is
// counted 1/k so that the three chances sum to 1). With the immediate
// ending the first bank to the target wins. With the final-round ending the
// other two play one last turn each, in order (the engine's rule: the game
// ends when the turn would come back to the player who reached the target),
// and the highest score wins: the first of them maximises its chance
// knowing the last will try to beat the best score, the last plays to pass
// it (or tie, worth 1/(k+1) with k on top); a player lx or more units behind
// (lx: where the duel's last turn drops below frCap) is taken to lose, an
// error of at most 2*frCap.
//
// Bank minimum (turn.bank_minimum, every turn at every score): a turn
// total below it cannot be banked, so the turn throws on there, and a turn
// that can neither bank nor throw (no hot dice) ends with nothing, which
// without a penalty passes the turn as a farkle does. In the final round
// the last player less than the minimum behind the score to beat must bank
// the minimum to pass and cannot tie (the duel's last turn likewise,
// TestThreeLastTurnIsDuels); the first player of the final round cannot
// bank below the minimum: its turn's rows from its start up to the
// minimum are filled again for each deficit below the minimum (midBelowMin;
// the rows above are the same from every start, and below the trigger a
// bank is worth nothing to it, so it throws there anyway:
// TestThreeMidBelowMinEveryStart), some lx*m*m totals for a minimum of m
// units, next to the lx*lx of the final round's tables. The entry minimum does not bind in the
// final round (the score to beat is at least the target, which is at least
// the entry minimum). Checked against the brute force at every state and
// at every position of the bot's questions, final rounds included
// (TestThreeBruteForceBankMinimum: both endings, an entry minimum on top,
// a farkle penalty). Cost, measured on this 2-core machine shared, runs
// alternated: pocket-farkel at 2000 with a minimum of 300 took 9.4-12.0 s
// of CPU against 9.7-10.8 s without (57 MiB peak resident memory both);
// classic at 600 (its penalty: sweeps) 12 sweeps against 10, 16.1-16.4 s
// against 13.9-14.9 s. With a penalty a minimum can make best responses
// chase each other through the penalty's lower score sums, which the
// sweeps read from the sweep before: classic to 300 with a minimum of 250
// flips the same states between the same policies every sweep (its
// largest change stays at 1.5e-3; halving each new value with the old does
// not settle it either). Such orbits across score sums are not resolved:
// the solve stops with ErrNoConvergence once the change has stopped
// shrinking (sweepsCycle, from the twelfth sweep; TestThreeSweepsCycle).
// The same rules with a minimum of 150, 200 or 300 settle in 12, 12 and 5
// sweeps.
//
// Rules: min_players <= 3 <= max_players (farkle solve --players 3 raises
// max_players of two-seat rules such as cardgames to 3). Refused with
// ErrThreeBankMinimum: rules where a turn can end with nothing (no hot
// dice, and a bank or entry minimum above one unit) under a farkle penalty
// that takes points: ending with nothing leaves the mover's streak as it
// was, a second way out of a turn that the turns, affine in the one farkle
// value, do not carry (every preset has hot dice). Others are refused with
// ErrRules.
//
// Farkle penalty (three_streaks.go): each seat's streak is in the state,
// A^3*c^3 states (c the penalty's count: 27 triples of streaks for classic
// and Farkle Dice, whose table at 10,000 is 4.8 GiB). A farkle moves the
// mover's streak up; the farkle completing it takes the penalty and lands
// at a lower score sum, read from the last sweep: the triples are solved in
// sweeps by decreasing sum, as the duel's, until they settle (the duel's
// stopping rule: a change below 1e-11 or an estimated error below 5e-10;
// Sweeps, SweepError). Within a triple's job the farkles only lead up the
// streaks, so each state is one best response to a solved value; only at
// (0, 0, 0) do they cycle (nine states for c = 3), solved as the rotations
// are below (cycleSolveN, the same mixed-equilibrium search). Checked
// against a brute force of small games at every state (TestThreeBruteForcePenalty,
// within 1e-9) and whole games of perfect bots (bot). Side by side: each
// state depends only on its own farkle value, so the states of a job whose
// farkle value is known (a round: first those whose penalty leaves the
// job, then the streaks below them) are filled lanes3 at a time as the
// triples below are (streakRound; the same values to the last bit,
// TestThreeLanesSameAsAlone). Cost: classic at 1,000 takes 8 sweeps and
// 24 s of CPU (60 s one state at a time, in the same session), classic at
// 500 3.8 s against 12.4 s (BenchmarkSolveThreeSmall); at 10,000 that is
// some 15 hours (the triples grow as A^3, a turn as A/2 plus the final
// round's 65 units above the target).
//
// Order of solution: triples by decreasing score sum. A farkle (or a turn
// ending with nothing) passes the turn with the scores unchanged: the
// rotations (a,b,c) -> (b,c,a) -> (c,a,b) form a cycle solved in one job.
// For fixed policies each rotation's value is affine in the value after its
// farkle with one slope (the chance of ending the turn that way), so the
// cycle's values are solved in closed form (rot^3 is the identity). The
// policies are found by best responses, one mover at a time (each turn's
// dynamic programme compares the mover's own component only; a tie goes to
// banking, then to the keep of more points for the same dice left, then to
// fewer dice left; the keeps of most points for each dice left are the
// only ones compared where the own after-keep values do not decrease over
// the totals a throw reaches, as in the duel) until
// a pass changes no policy: the values are then exact for policies that are
// each a best response to them; Residual reports the linear solve's
// rounding (about 1e-16).
//
// Orbits: in a few triples the best responses cycle (two or three movers
// chasing each other, as with matching pennies); there is no pure stationary
// equilibrium. They are detected (a profile of policies seen before, or 60
// passes) and resolved by the rule of ThreeOptions.Rule. OrbitMixed (the
// default): each mover plays a policy of its upper envelope (the policies
// seen along the cycle, and any better one the check below finds) or mixes
// two neighbours of it, at the own farkle value where it is indifferent;
// the candidates are tried with the fewest mixing movers first, the mixing
// weights solved from the indifference equations (bisection for one mover,
// Newton for two or three, to 1e-15), and the result checked by running
// every mover's turn programme: no mover gains by deviating alone (Regret,
// at most 1e-12; observed 1e-16). OrbitPure: the pure profile of the
// policies seen whose largest such gain is least (an epsilon-equilibrium,
// epsilon reported as Regret). Orbits lists each with its scores, weights,
// the swing of the values along the cycle and its regret. Classic without
// its penalty at target 1000 has 6 orbits (swing up to 2.7e-3); the start
// chances under the two rules differ by 1.2e-7 there.
//
// Side by side: the triples of one score sum read none of each other, so
// the solver runs the passes of four of them in step and fills the turns of
// a step together (three_lanes.go): their in-turn entries interleaved
// (the four lanes' own values, then each lane's four components
// together), one pass over a throw's options serving the four, on amd64
// with AVX2 in one routine (sum3LanesAVX2: it compares every option's own
// values and reads only each lane's best vector, one load a lane; the Go
// form with -tags purego or without AVX2; TestSum3Lanes). The
// options of a group are ordered so that the first of most own value is the
// solver's choice (blocks3All), and the turns skip the throws a bound shows
// are no better than banking (banked3, as the duel's banked; the four
// lanes' bounds of every number of dice at one total in one AVX2 routine,
// bound3AVX2, TestBound3Lanes). Each lane's sums are the same operations
// in the same order as a turn alone, so the table is the same to the last
// bit (TestThreeLanesSameAsAlone). The after-keep row of the four lanes
// is one AVX2 routine as well (keepRow3AVX2: the lanes' entries turned into
// components across the lanes and back, a 4x4 transpose, 19 ns a row
// against 104-113 ns in Go; TestKeepRow3), and the lanes' bank values are
// read along the table straight into their arrays. With the three (this
// release), classic at 1500 took 24.9-26.2 s against 32.9-40.0 s (three
// rounds alternating with the release before, on two cores; the sums,
// sum3LanesAVX2, are now 55% of the CPU). The CPU
// grows with the fourth power of the target (less where the final round's
// turns above the target dominate: the triples as A^3, a turn's totals as
// A/2 plus some 65 units above the target): cardgames at targets 2000,
// 3000 and 4000 takes 1.7, 9.5 and 26.7 s of CPU, pocket-farkel 6.0, 21.7
// and 51 s (a shared 2-core machine); cardgames at its full target (10000,
// 8 million triples) took 876 s of CPU (27 minutes on the machine shared,
// half a core on average; some 7.5 minutes with both cores), peak resident
// memory 405 MiB (the Go heap's garbage on top of the 195 MiB bound), 18
// orbits, 36.68 / 33.17 / 30.15 % for seats 1, 2, 3; pocket-farkel's took
// 946 s of CPU and 10 min 18 s (1.5 cores on average), peak 429 MiB, 17
// orbits, 36.35 / 33.20 / 30.45 % (fair compensation +200 for seat 2 and
// +400 for seat 3: 33.15 / 33.34 / 33.50 %); BenchmarkSolveThreeSmall
// compares the lanes with the solver alone in one run. Measured at target
// 1500: of a triple's turns, those of its last pass repeat the policies of
// the pass before (cardgames about 2.2 passes a triple, pocket-farkel
// 3.6), and between the starts a and a-1 of one mover against the same
// two scores some 57% (pocket-farkel) to 82% (cardgames) of the totals
// below the top keep the same values: what a solver knowing where a turn's
// decisions change with its farkle value could skip. A turn is a function
// of its state and its own farkle value alone (the values it reads are of
// higher sums), so a mover whose farkle value is the same to the last bit
// as at its last fill in the iteration reuses that fill's policy
// (turnMemo3, TestThreeReuseSame): the movers after the last one whose
// policy changed in a pass, 8% of the turns for pocket-farkel at 500 and
// none for cardgames (its triples settle in the second pass, whose farkle
// values are no longer the guesses). Exact reuse across the sweeps of a
// penalty finds nothing: every value of classic at 1000 changes in every
// sweep. The best-response iteration is not free to
// change: its start decides which equilibrium is found where there are
// several (pocket-farkel at 1500: two at (550, 550, 1250), 1.3e-5 apart).
//
// The bot's questions (Options, BankBest at a ThreePosition) recompute the
// mover's turn from the table, final-round turns included; CachedThree,
// WriteThree and ReadThree keep the table in a cache file like the duel's
// (with the orbit rule and the orbits in its header). ThreeBytes is the
// memory of a solve: 24*A^3 bytes for the table plus the final round (a few
// MiB) and the workers' turn arrays.
//
// # Memory
//
// SoloBytes and DuelBytes give the peak memory of a solve from the rules
// alone (model, turn arrays, table, final round and workers' arrays; the
// final round's length is bounded by a Chernoff bound of the chance of one
// turn reaching a total). SolveSoloWith, SolveDuel, Cached and
// ReadTableLimit refuse a need above their limit (DefaultMaxBytes unless
// told) with ErrTooLarge before allocating it.
//
// The cache file of a table (WriteTable, ReadTable, Cached, SaveTable) is the
// only file access of the package: a header with format version, rules hash
// and dimensions, the values, and a SHA-256 checksum; any mismatch is
// ErrCache and Cached rebuilds the file.
package solve
