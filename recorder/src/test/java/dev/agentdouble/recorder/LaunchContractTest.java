package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Launch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shell launchers ({@code fake-agent/bin/cursor-agent}, {@code ./agentdouble}) and the
 * environment table of docs/cli.md say what {@link Launch} and {@link FakeEnvironment} say: the
 * same JVM options, main classes and system properties, and no variable the contract does not name.
 */
class LaunchContractTest {
  private static final Pattern NAME = Pattern.compile(FakeEnvironment.PREFIX + "[A-Z_]*[A-Z]");

  private static String read(String path) throws IOException {
    return Files.readString(Cli.root().resolve(path), StandardCharsets.UTF_8);
  }

  /** The words after {@code start} on the first line with it, continuation lines joined. */
  private static List<String> words(String script, String start) {
    String joined = script.replace("\\\n", " ");
    for (String line : joined.split("\n")) {
      int at = line.indexOf(start);
      if (at >= 0 && !line.strip().startsWith("#")) {
        return Arrays.asList(line.substring(at + start.length()).strip().split("\\s+"));
      }
    }
    throw new AssertionError("no line with " + start);
  }

  /** The words from {@code words} before the first that starts with {@code stop}. */
  private static List<String> before(List<String> words, String stop) {
    List<String> options = new ArrayList<>();
    for (String w : words) {
      if (w.startsWith(stop)) {
        break;
      }
      options.add(w);
    }
    return options;
  }

  private static Set<String> names(String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = NAME.matcher(text);
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }

  @Test
  void theFakeLauncherRunsTheFakeWithTheContractsOptions() throws IOException {
    String script = read("fake-agent/bin/cursor-agent");

    List<String> run = words(script, "set --");
    assertThat(before(run, "-D")).isEqualTo(Launch.FAKE_JVM_OPTIONS);
    assertThat(run)
        .contains(
            "-D" + Launch.TTY_PROPERTY + "=\"$tty\"",
            "-D" + Launch.INVOKED_AS_PROPERTY + "=\"$0\"",
            Launch.FAKE_MAIN);
    List<String> list = words(script, "if \"$java\" -XX:DumpLoadedClassList=\"$tmp.classes\"");
    assertThat(before(list, "-cp")).isEqualTo(Launch.CLASS_LIST_JVM_OPTIONS);
    assertThat(list).contains(Launch.TRAINING_MAIN);
    List<String> dump =
        words(
            script,
            "&& \"$java\" -XX:SharedClassListFile=\"$tmp.classes\" -XX:SharedArchiveFile=\"$tmp\"");
    assertThat(before(dump, "-cp")).isEqualTo(Launch.ARCHIVE_JVM_OPTIONS);
  }

  @Test
  void theAgentdoubleLauncherRunsEachCommandWithTheContractsOptions() throws IOException {
    String script = read("agentdouble");

    assertThat(script).contains("opts=\"" + Launch.joined(Launch.COMMAND_JVM_OPTIONS) + "\"\n");
    assertThat(script)
        .contains(
            "[ \"${1:-}\" = record ] && opts=\""
                + Launch.joined(Launch.RECORDER_JVM_OPTIONS)
                + "\"\n");
    // one way in for every command, serve included (the registry finds it)
    assertThat(script.split("exec \"\\$java\"", -1)).hasSize(2);
    assertThat(script)
        .contains(
            "-D" + Launch.HOME_PROPERTY + "=\"$root\"",
            "-D" + Launch.PARENT_PROPERTY + "=\"$PPID\"",
            Launch.RECORDER_MAIN + " \"$@\"");
  }

  @Test
  void theLaunchersMentionOnlyTheContractsVariables() throws IOException {
    Set<String> mentioned = new TreeSet<>(names(read("fake-agent/bin/cursor-agent")));
    mentioned.addAll(names(read("agentdouble")));

    assertThat(mentioned).isNotEmpty();
    assertThat(FakeEnvironment.NAMES).containsAll(mentioned);
  }

  @Test
  void theEnvironmentTableOfTheDocsListsEveryVariableOfTheContract() throws IOException {
    Set<String> rows = new TreeSet<>();
    for (String line : read("docs/cli.md").split("\n")) {
      if (line.startsWith("| `" + FakeEnvironment.PREFIX)) {
        rows.addAll(names(line.substring(0, line.indexOf('|', 1))));
      }
    }

    assertThat(rows).containsExactlyInAnyOrderElementsOf(FakeEnvironment.NAMES);
  }

  @Test
  void aFakeShimExecsTheFakeWithTheContractsOptions() {
    String sh =
        Launch.fakeShim(
            Path.of("/j/bin/java"),
            Optional.empty(),
            "/cp/a.jar",
            Map.of(FakeEnvironment.TIMING, "it's fast"),
            Optional.empty(),
            "x");

    assertThat(sh)
        .startsWith(
            "#!/bin/sh\n# x\nunset "
                + FakeEnvironment.TAPE
                + " "
                + FakeEnvironment.TAPES
                + "\n"
                + FakeEnvironment.TIMING
                + "='it'\\''s fast'\n");
    assertThat(sh)
        .contains(
            "exec '/j/bin/java' "
                + Launch.joined(Launch.FAKE_JVM_OPTIONS)
                + " -D"
                + Launch.TTY_PROPERTY
                + "=\"$tty\"");
    assertThat(sh).endsWith(" -cp '/cp/a.jar' " + Launch.FAKE_MAIN + " \"$@\"\n");
  }
}
