package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.agentdouble.fake.internal.run.SettledTape;
import dev.agentdouble.files.PrivateFolder;
import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A big tape through the real launcher: its first replay and its replays after it, from the replay
 * cache with the values copied by the kernel, write the same bytes; the cache goes where {@code
 * AGENTDOUBLE_CACHE_DIR} says, or nowhere.
 */
@Timeout(120)
class ReplayCacheTest {
  @TempDir Path dir;

  /** About 1.2 MiB: answers of 300 KiB (copied by the kernel) between small events. */
  private static Tape bigTape(int code) {
    Script script = Script.of().init().user();
    for (int i = 0; i < 4; i++) {
      script.thinking("step " + i).assistant(("line " + i + "\t\"quoted\" é\n").repeat(15_000));
    }
    Tape tape = script.result().exit(code).build();
    return new Tape(tape.header().toBuilder().vars(Vars.NONE).build(), tape.frames());
  }

  private static byte[] expectedStdout(Tape tape) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Frame frame : tape.frames()) {
      if (frame instanceof Frame.Out o) {
        out.writeBytes((o.json() + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    return out.toByteArray();
  }

  private Path settled(Tape tape) throws IOException {
    Path file = dir.resolve("big.tape.ndjson");
    tape.write(file);
    SettledTape.awaitSettled(file); // an entry is kept for a tape that stood unchanged a while
    return file;
  }

  private static FakeProcess.Result replay(Path tape, Map<String, String> more) {
    Map<String, String> env =
        env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast");
    env.putAll(more);
    return FakeProcess.run(env, "-p", "--output-format", "stream-json", "hi");
  }

  private static List<Path> files(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return List.of();
    }
    try (Stream<Path> all = Files.walk(folder)) {
      return all.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void aBigTapeReplaysByteForByteOnItsFirstReplayAndFromTheCache() throws Exception {
    Tape tape = bigTape(0);
    Path file = settled(tape);
    Path cache = dir.resolve("cache");
    Map<String, String> env = Map.of("AGENTDOUBLE_CACHE_DIR", cache.toString());

    FakeProcess.Result first = replay(file, env);
    List<Path> kept = files(cache);
    FakeProcess.Result again = replay(file, env);

    byte[] expected = expectedStdout(tape);
    assertThat(expected.length).isGreaterThan(1 << 20);
    assertThat(first.err()).isEmpty();
    assertThat(first.exit()).isZero();
    assertThat(first.stdout()).isEqualTo(expected);
    assertThat(kept).hasSize(1);
    assertThat(again.exit()).isZero();
    assertThat(again.stdout()).isEqualTo(expected);
  }

  @Test
  void aTapeMadeBadSinceItWasKeptIsRefusedAsWithoutACache() throws Exception {
    Path file = settled(bigTape(0));
    Path cache = dir.resolve("cache");
    assertThat(replay(file, Map.of("AGENTDOUBLE_CACHE_DIR", cache.toString())).exit()).isZero();
    assertThat(files(cache)).hasSize(1);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    int at = text.lastIndexOf("quoted");
    Files.writeString(
        file,
        text.substring(0, at) + "quo\u0001ed" + text.substring(at + 6),
        StandardCharsets.UTF_8);

    FakeProcess.Result cached = replay(file, Map.of("AGENTDOUBLE_CACHE_DIR", cache.toString()));
    FakeProcess.Result uncached = replay(file, Map.of("AGENTDOUBLE_CACHE_DIR", "off"));

    assertThat(uncached.exit()).isEqualTo(70);
    assertThat(uncached.err()).contains("big.tape.ndjson:", "control character");
    assertThat(cached.exit()).isEqualTo(70);
    assertThat(cached.stdout()).isEmpty();
    assertThat(cached.err()).isEqualTo(uncached.err());
  }

  @Test
  void offKeepsNothingAnywhere() throws Exception {
    Path file = settled(bigTape(0));
    Path home = Files.createDirectories(dir.resolve("home"));
    Path xdg = Files.createDirectories(dir.resolve("xdg"));

    FakeProcess.Result run =
        replay(
            file,
            Map.of(
                "AGENTDOUBLE_CACHE_DIR",
                "off",
                "HOME",
                home.toString(),
                "XDG_CACHE_HOME",
                xdg.toString()));
    FakeProcess.Result again =
        replay(file, Map.of("AGENTDOUBLE_CACHE_DIR", "off", "HOME", home.toString()));

    assertThat(run.exit()).isZero();
    assertThat(again.stdout()).isEqualTo(run.stdout());
    assertThat(files(home)).isEmpty();
    assertThat(files(xdg)).isEmpty();
  }

  @Test
  void withoutTheVariableTheCacheIsInTheUsersCacheFolder() throws Exception {
    Path file = settled(bigTape(0));
    Path xdg = Files.createDirectories(dir.resolve("xdg"));

    FakeProcess.Result run = replay(file, Map.of("XDG_CACHE_HOME", xdg.toString()));

    assertThat(run.exit()).isZero();
    assertThat(files(xdg))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.getParent())
                    .isEqualTo(
                        xdg.resolve(
                            "agentdouble/replay/agentdouble-replay-"
                                + PrivateFolder.user().getAsInt())));
  }

  /**
   * A folder named for the cache that others share (sticky, writable by all) keeps its mode and
   * their files, however they are named: the cache keeps its entries in a folder of its own inside.
   */
  @Test
  void aSharedFolderKeepsItsModeAndEveryFileOfOthers() throws Exception {
    Tape tape = bigTape(0);
    Path file = settled(tape);
    Path shared = Files.createDirectories(dir.resolve("shared"));
    Files.setAttribute(shared, "unix:mode", 01777);
    for (int i = 0; i < 100; i++) {
      Files.writeString(shared.resolve("upload-" + i + ".tmp"), "someone's");
    }
    Map<String, String> env = Map.of("AGENTDOUBLE_CACHE_DIR", shared.toString());

    FakeProcess.Result first = replay(file, env);
    FakeProcess.Result again = replay(file, env);

    assertThat(first.stdout()).isEqualTo(expectedStdout(tape));
    assertThat(again.stdout()).isEqualTo(expectedStdout(tape));
    assertThat(Files.getAttribute(shared, "unix:mode")).isEqualTo(041777);
    assertThat(files(shared))
        .hasSize(101)
        .filteredOn(f -> !f.getParent().equals(shared))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.getParent().getFileName())
                    .hasToString("agentdouble-replay-" + PrivateFolder.user().getAsInt()));
  }

  /**
   * Another local user who owns the folder the cache is in forges an entry for the victim's tape
   * (its key is public: the tape's path, inode, size and times, the fake's jars) that says no line
   * needs compacting: the victim's replay does not believe it and writes the tape's true bytes.
   */
  @Test
  void aForgedEntryInAFolderOfAnotherUserIsNotBelieved() throws Exception {
    assumeThat(PrivateFolder.user()).as("chown takes root").hasValue(0);
    Tape tape = bigTape(0);
    Path file = dir.resolve("big.tape.ndjson");
    tape.write(file);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    // one value written with a space, which the CLI's stdout has not
    Files.writeString(
        file,
        text.replaceFirst("\"text\":\"step 0\"", "\"text\": \"step 0\""),
        StandardCharsets.UTF_8);
    SettledTape.awaitSettled(file); // an entry is kept for a tape that stood unchanged a while
    Path mine = dir.resolve("mine");
    FakeProcess.Result first = replay(file, Map.of("AGENTDOUBLE_CACHE_DIR", mine.toString()));
    assertThat(first.stdout()).isEqualTo(expectedStdout(tape));
    Path entry = ForgedEntry.find(mine);
    byte[] bytes = Files.readAllBytes(entry);
    byte[] forged = ForgedEntry.allCompact(bytes);
    Files.write(entry, forged);
    assertThat(replay(file, Map.of("AGENTDOUBLE_CACHE_DIR", mine.toString())).out())
        .as("the forgery, in the user's own folder")
        .contains("\"text\": \"step 0\"");
    Files.write(entry, bytes);
    Path theirs = dir.resolve("theirs");
    ForgedEntry.plant(mine, entry, forged, theirs, 65534);

    FakeProcess.Result victim = replay(file, Map.of("AGENTDOUBLE_CACHE_DIR", theirs.toString()));

    assertThat(victim.err()).isEmpty();
    assertThat(victim.exit()).isZero();
    assertThat(victim.out()).as("compacted as the CLI writes it").contains("\"text\":\"step 0\"");
    assertThat(Arrays.equals(victim.stdout(), expectedStdout(tape)))
        .as("the tape's bytes")
        .isTrue();
  }
}
