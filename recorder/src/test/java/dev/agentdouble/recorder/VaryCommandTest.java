package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import dev.agentdouble.tape.TapeWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VaryCommandTest {
  @TempDir Path dir;

  private Path golden() throws Exception {
    Path file = dir.resolve("golden.tape.ndjson");
    Script.of("hi").init().user().assistant("Hello there.").result().exit(0).build().write(file);
    return file;
  }

  @Test
  void listsTheVariants() {
    Cli.Result r = Cli.run("vary", "--list");

    assertThat(r.exit()).isZero();
    assertThat(new String(r.stdout(), StandardCharsets.UTF_8))
        .contains("rechunk", "cut-mid-line", "partial-output");
  }

  @Test
  void writesAVariantOnStdoutTheSameForTheSameSeed() throws Exception {
    Path golden = golden();

    Cli.Result one = Cli.run("vary", golden.toString(), "--variant", "cut-mid-line", "--seed", "5");
    Cli.Result two = Cli.run("vary", golden.toString(), "--variant", "cut-mid-line", "--seed", "5");

    assertThat(one.exit()).isZero();
    assertThat(one.stdout()).isEqualTo(two.stdout());
    Tape cut = TapeReader.parse("variant", new String(one.stdout(), StandardCharsets.UTF_8));
    assertThat(cut.ending()).isInstanceOf(Frame.Kill.class);
  }

  @Test
  void writesAVariantToAFile() throws Exception {
    Path out = dir.resolve("v.tape.ndjson");

    Cli.Result r =
        Cli.run("vary", golden().toString(), "--variant", "drop-result", "--out", out.toString());

    assertThat(r.exit()).isZero();
    assertThat(TapeWriter.toText(Tape.read(out))).doesNotContain("\"type\":\"result\"");
  }

  @Test
  void anUnknownVariantIsAUsageErrorListingTheKnownOnes() throws Exception {
    Cli.Result r = Cli.run("vary", golden().toString(), "--variant", "shuffle");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("agentdouble: no variant named \"shuffle\"; variants are rechunk");
  }

  @Test
  void variesABuiltInTape() {
    Cli.Result r = Cli.run("vary", "builtin:tool-shell", "--variant", "drop-result");

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.out()).startsWith("{\"tape\":1").doesNotContain("\"type\":\"result\"");
  }
}
