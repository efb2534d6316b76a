package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.tape.TapeReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class CatalogCommandTest {
  @TempDir Path dir;

  @Test
  void listsEveryBuiltinTapeWithItsFormatsAndWhatItDoes() {
    Cli.Result r = Cli.run("catalog");

    assertThat(r.exit()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(Catalog.entries().size());
    assertThat(lines).allSatisfy(line -> assertThat(line).matches("[a-z0-9-]+ +[a-z,-]+  .+"));
    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "documented-minimal +stream-json,json,text  the documented minimal run: .+"));
    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line).matches("text-silent-until-exit +text +--output-format text .+"));
    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "killed-mid-line +stream-json +killed by SIGKILL .+ \\[unterminated-line\\]"));
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + Catalog.entries().size()
                + " built-in tapes; replay one with AGENTDOUBLE_TAPE=builtin:NAME\n");
  }

  @Test
  void showPrintsTheTapeItself() {
    Cli.Result r = Cli.run("catalog", "--show", "usage-limit");

    assertThat(r.exit()).isZero();
    assertThat(r.stdout()).isEqualTo(Catalog.tape("usage-limit").toBytes());
    assertThat(TapeReader.parse("shown", r.out())).isEqualTo(Catalog.tape("usage-limit"));
    assertThat(r.err()).isEmpty();
  }

  @Test
  void writePutsTheTapeInAFile() throws Exception {
    Path file = dir.resolve("mine/limit.tape.ndjson");

    Cli.Result r = Cli.run("catalog", "--write", "usage-limit", "--out", file.toString());

    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(Files.readAllBytes(file)).isEqualTo(Catalog.tape("usage-limit").toBytes());
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: wrote "
                + file
                + " (builtin:usage-limit, "
                + Catalog.tape("usage-limit").frames().size()
                + " frames)\n");
  }

  @Test
  void anUnknownNameFailsNamingTheClosestOnes() {
    Cli.Result r = Cli.run("catalog", "--show", "tool-reed");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith(
            "agentdouble: no built-in tape named \"tool-reed\"; did you" + " mean tool-read");
  }

  @Test
  void optionsThatDoNotGoTogetherAreUsageErrors() {
    assertThat(Cli.run("catalog", "--write", "usage-limit").err())
        .startsWith("agentdouble: --write NAME needs --out FILE\n");
    assertThat(Cli.run("catalog", "--out", "x.tape.ndjson").err())
        .startsWith("agentdouble: --out FILE goes with --write NAME\n");
    assertThat(Cli.run("catalog", "--show", "a", "--write", "b", "--out", "c").err())
        .startsWith("agentdouble: give --show NAME or --write NAME, not both\n");
    Cli.Result positional = Cli.run("catalog", "usage-limit");
    assertThat(positional.exit()).isEqualTo(2);
    assertThat(positional.err())
        .isEqualTo(
            "agentdouble: catalog takes options only, not"
                + " 'usage-limit'; to print a tape, use --show NAME\n"
                + "Run 'agentdouble catalog --help' for usage.\n");
  }

  @Test
  void replayPlaysABuiltinTapeThroughTheFakeAgent() {
    Cli.Result r = Cli.runInstalled("replay", "--timing", "fast", "builtin:usage-limit");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out().lines()).hasSize(2);
    assertThat(r.out())
        .startsWith("{\"type\":\"system\",\"subtype\":\"init\"")
        .contains("\"text\":\"Refactor the checkout flow\"");
    assertThat(r.err()).startsWith("ActionRequiredError: You've hit your usage limit");
  }

  @Test
  void replayOfAnUnknownBuiltinNameExits70AsTheFakeDoes() {
    Cli.Result r = Cli.runInstalled("replay", "builtin:usage");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err())
        .startsWith("agentdouble: no built-in tape named \"usage\"; did you mean ")
        .contains("usage-limit", "usage-in-result");
  }

  @Test
  void theReadmeCountsTheBuiltinTapes() throws Exception {
    String readme = Files.readString(Cli.root().resolve("README.md"), StandardCharsets.UTF_8);
    int n = Catalog.entries().size();

    assertThat(readme).contains("one of the " + n + " built-in ones", "(" + n + " built-in tapes");
  }

  @Test
  void theManualNamesEveryBuiltinTape() throws Exception {
    String manual = Files.readString(Cli.root().resolve("docs/cli.md"), StandardCharsets.UTF_8);

    assertThat(Catalog.entries())
        .allSatisfy(
            e ->
                assertThat(manual)
                    .as("docs/cli.md names %s", e.name())
                    .contains("`" + e.name() + "`"));
  }
}
