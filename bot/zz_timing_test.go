package bot_test
import ("testing";"time";"github.com/farkle/farkle/bot";"github.com/farkle/farkle/rules")
func TestPrepTiming(t *testing.T){
 r:=rules.MustPreset("classic")
 b,_:=bot.New("perfect",r, bot.WithTables(bot.NewTables(t.TempDir())))
 t0:=time.Now(); err:=bot.Prepare(b); t.Log("prepare", time.Since(t0), err)
}
