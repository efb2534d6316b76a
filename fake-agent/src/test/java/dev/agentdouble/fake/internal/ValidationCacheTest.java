package dev.agentdouble.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.tape.Vars;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidationCacheTest {
  @TempDir Path dir;

  /** A tape of about 400 KiB without vars: four answers of 100 KiB, then exit {@code code}. */
  static Tape bigTape(char letter, int code) {
    Script script = Script.of().init().user();
    for (int i = 0; i < 4; i++) {
      script.assistant(String.valueOf(letter).repeat(100 * 1024));
    }
    Tape tape = script.result().exit(code).build();
    return new Tape(tape.header().toBuilder().vars(Vars.NONE).build(), tape.frames());
  }

  /** Writes the tape and waits until it has stood unchanged long enough to be kept. */
  private Path settled(Tape tape) throws IOException, InterruptedException {
    Path file = dir.resolve("run.tape.ndjson");
    tape.write(file);
    settle();
    return file;
  }

  private static void settle() throws InterruptedException {
    Thread.sleep(ValidationCache.SETTLED_MS + 50);
  }

  private static Player.Checked checked(ValidationCache cache, Path tape) throws IOException {
    try (TapeSource source = TapeSource.of(tape)) {
      return cache.checked(source);
    }
  }

  private static List<Path> entries(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.toList();
    }
  }

  @Test
  void aTapeReplayedAgainIsNotValidatedAgain() throws Exception {
    Path tape = settled(bigTape('a', 0));
    ValidationCache cache = new ValidationCache(dir.resolve("cache"));

    Player.Checked first = checked(cache, tape);
    Player.Checked again = checked(cache, tape);

    assertThat(cache.validations()).isEqualTo(1);
    assertThat(again.ending()).isEqualTo(first.ending()).isInstanceOf(Frame.Exit.class);
    assertThat(again.header()).isEqualTo(first.header());
    assertThat(again.notCompactLines()).isEqualTo(first.notCompactLines());
    assertThat(again.bigValues()).isEqualTo(first.bigValues()).hasSize(5);
  }

  @Test
  void theCacheIsItsOwnersOnlyAndNamesNoTape() throws Exception {
    Path tape = settled(bigTape('a', 0));
    Path folder = dir.resolve("cache");

    checked(new ValidationCache(folder), tape);

    assertThat(Files.getPosixFilePermissions(folder))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(entries(folder))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.getFileName().toString())
                    .matches("[0-9a-f]{32}\\.entry")
                    .doesNotContain("run", "tape"));
  }

  @Test
  void aTapeWrittenAgainWithTheSameSizeIsValidatedAgainAndRefusedAsWithoutACache()
      throws Exception {
    Path tape = settled(bigTape('a', 0));
    ValidationCache cache = new ValidationCache(dir.resolve("cache"));
    checked(cache, tape);
    // the same size, another content: one answer's text no longer closed (not JSON)
    String text = Files.readString(tape, StandardCharsets.UTF_8);
    int at = text.indexOf("aaaa\"");
    Files.writeString(
        tape, text.substring(0, at) + "aaaa " + text.substring(at + 5), StandardCharsets.UTF_8);
    settle();

    String withoutCache;
    try (TapeSource source = TapeSource.of(tape)) {
      withoutCache =
          assertThatThrownBy(() -> Player.validate(source))
              .isInstanceOf(TapeException.class)
              .actual()
              .getMessage();
    }
    assertThatThrownBy(() -> checked(cache, tape))
        .isInstanceOf(TapeException.class)
        .hasMessage(withoutCache);
    assertThat(cache.validations()).isEqualTo(2);
  }

  @Test
  void aTapeChangedInItsEndingIsReadAgain() throws Exception {
    Path tape = settled(bigTape('a', 0));
    ValidationCache cache = new ValidationCache(dir.resolve("cache"));
    checked(cache, tape);

    bigTape('a', 3).write(tape);
    settle();

    assertThat(checked(cache, tape).ending())
        .isInstanceOfSatisfying(Frame.Exit.class, e -> assertThat(e.code()).isEqualTo(3));
    assertThat(cache.validations()).isEqualTo(2);
  }

  @Test
  void aCorruptEntryIsIgnored() throws Exception {
    Path tape = settled(bigTape('a', 0));
    Path folder = dir.resolve("cache");
    ValidationCache cache = new ValidationCache(folder);
    Player.Checked first = checked(cache, tape);
    Path entry = entries(folder).get(0);
    byte[] bytes = Files.readAllBytes(entry);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(entry, bytes);

    Player.Checked again = checked(cache, tape);

    assertThat(cache.validations()).isEqualTo(2);
    assertThat(again.bigValues()).isEqualTo(first.bigValues());
    assertThat(checked(cache, tape).ending()).isEqualTo(first.ending());
    assertThat(cache.validations()).as("the entry was written again").isEqualTo(2);
  }

  @Test
  void aTapeJustWrittenIsNotKeptUntilItSettles() throws Exception {
    Path tape = dir.resolve("run.tape.ndjson");
    bigTape('a', 0).write(tape);
    Path folder = dir.resolve("cache");

    checked(new ValidationCache(folder), tape);

    assertThat(entries(folder)).isEmpty();
  }

  @Test
  void aSmallTapeOrNoFolderLeavesTheCacheAlone() throws Exception {
    Path folder = dir.resolve("cache");
    Path small = dir.resolve("small.tape.ndjson");
    Script.of().init().result().exit(0).build().write(small);
    Path big = settled(bigTape('a', 0));

    try (TapeSource source = TapeSource.of(small)) {
      Player.validate(source, Optional.of(folder));
    }
    try (TapeSource source = TapeSource.of(big)) {
      Player.validate(source, Optional.empty());
    }

    assertThat(folder).doesNotExist();
  }

  @Test
  void theOldestEntriesGoBeyondTheBound() throws Exception {
    Path folder = dir.resolve("cache");
    ValidationCache cache = new ValidationCache(folder);
    Path tape = settled(bigTape('a', 0));
    checked(cache, tape);
    Path first = entries(folder).get(0);
    Files.setLastModifiedTime(first, FileTime.fromMillis(0));
    for (int i = 0; i < ValidationCache.KEPT; i++) {
      Files.writeString(folder.resolve("filler" + i + ".entry"), "x");
    }
    bigTape('b', 0).write(tape);
    settle();

    checked(cache, tape);

    assertThat(entries(folder)).hasSize(ValidationCache.KEPT).doesNotContain(first);
  }
}
