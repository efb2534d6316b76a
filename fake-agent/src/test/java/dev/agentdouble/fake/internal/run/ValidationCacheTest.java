package dev.agentdouble.fake.internal.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.agentdouble.fake.ForgedEntry;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.files.PrivateFolder;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidationCacheTest {
  /** Another user: nobody (chown takes root; tests that need it are skipped without). */
  static final int OTHER = 65534;

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

  /** The caches' clock in these tests (ms since the epoch): set by the test, not read. */
  private final AtomicLong now = new AtomicLong();

  /** A cache in {@code named} on the test's clock. */
  private ValidationCache cache(Path named) {
    return new ValidationCache(named, now::get);
  }

  /** Writes the tape and sets the clock to when it has stood unchanged long enough to be kept. */
  private Path settled(Tape tape) throws IOException {
    Path file = dir.resolve("run.tape.ndjson");
    tape.write(file);
    settle(file);
    return file;
  }

  /** Sets the clock to a while after {@code tape} last changed: long enough for it to be kept. */
  private void settle(Path tape) {
    now.set(SettledTape.settledAt(tape));
  }

  private static Player.Checked checked(ValidationCache cache, Path tape) throws IOException {
    try (TapeSource source = TapeSource.of(tape)) {
      return cache.checked(source);
    }
  }

  private static int exitCode(Player.Checked checked) {
    return ((Frame.Exit) checked.ending()).code();
  }

  /** The cache's own folder inside the one named. */
  private static Path own(Path named) {
    return named.resolve(ValidationCache.FOLDER_PREFIX + PrivateFolder.user().getAsInt());
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
    ValidationCache cache = cache(dir.resolve("cache"));

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

    checked(cache(folder), tape);

    assertThat(Files.getPosixFilePermissions(folder))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(Files.getPosixFilePermissions(own(folder)))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(entries(folder)).containsExactly(own(folder));
    assertThat(entries(own(folder)))
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
    ValidationCache cache = cache(dir.resolve("cache"));
    checked(cache, tape);
    // the same size, another content: one answer's text no longer closed (not JSON)
    String text = Files.readString(tape, StandardCharsets.UTF_8);
    int at = text.indexOf("aaaa\"");
    Files.writeString(
        tape, text.substring(0, at) + "aaaa " + text.substring(at + 5), StandardCharsets.UTF_8);
    settle(tape);

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
    ValidationCache cache = cache(dir.resolve("cache"));
    checked(cache, tape);

    bigTape('a', 3).write(tape);
    settle(tape);

    assertThat(checked(cache, tape).ending())
        .isInstanceOfSatisfying(Frame.Exit.class, e -> assertThat(e.code()).isEqualTo(3));
    assertThat(cache.validations()).isEqualTo(2);
  }

  @Test
  void aCorruptEntryIsIgnored() throws Exception {
    Path tape = settled(bigTape('a', 0));
    Path folder = dir.resolve("cache");
    ValidationCache cache = cache(folder);
    Player.Checked first = checked(cache, tape);
    Path entry = entries(own(folder)).get(0);
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
    now.set(SettledTape.changed(tape)); // the moment it was written

    checked(cache(folder), tape);

    assertThat(entries(own(folder))).isEmpty();
  }

  @Test
  void aSmallTapeOrNoFolderLeavesTheCacheAlone() throws Exception {
    Path folder = dir.resolve("cache");
    Path small = dir.resolve("small.tape.ndjson");
    Script.of().init().result().exit(0).build().write(small);
    Path big = settled(bigTape('a', 0));

    try (TapeSource source = TapeSource.of(small)) {
      Turn.validate(source, Optional.of(folder));
    }
    try (TapeSource source = TapeSource.of(big)) {
      Turn.validate(source, Optional.empty());
    }

    assertThat(folder).doesNotExist();
  }

  @Test
  void theOldestEntriesGoBeyondTheBound() throws Exception {
    Path folder = dir.resolve("cache");
    ValidationCache cache = cache(folder);
    Path tape = settled(bigTape('a', 0));
    checked(cache, tape);
    Path first = entries(own(folder)).get(0);
    Files.setLastModifiedTime(first, FileTime.fromMillis(0));
    for (int i = 0; i < ValidationCache.KEPT; i++) {
      Files.writeString(own(folder).resolve(String.format("%032x.entry", i)), "x");
    }
    bigTape('b', 0).write(tape);
    settle(tape);

    checked(cache, tape);

    assertThat(entries(own(folder))).hasSize(ValidationCache.KEPT).doesNotContain(first);
  }

  /**
   * A folder the user names for the cache, here a shared one (sticky, writable by all) holding
   * others' temp files, keeps its mode and every file: the cache works in a folder of its own.
   */
  @Test
  void aFolderTheUserNamedKeepsItsModeAndItsFilesAndHoldsTheCacheInAFolderOfItsOwn()
      throws Exception {
    Path shared = Files.createDirectories(dir.resolve("shared"));
    Files.setAttribute(shared, "unix:mode", 01777);
    for (int i = 0; i < 100; i++) {
      Files.writeString(shared.resolve("upload-" + i + ".tmp"), "someone's");
      Files.writeString(shared.resolve("note-" + i + ".entry"), "someone's");
    }
    Path tape = settled(bigTape('a', 0));
    ValidationCache cache = cache(shared);

    checked(cache, tape);
    checked(cache, tape);

    assertThat(Files.getAttribute(shared, "unix:mode")).isEqualTo(041777);
    assertThat(entries(shared)).hasSize(201).contains(own(shared));
    assertThat(entries(own(shared))).singleElement();
    assertThat(cache.validations()).as("the cache is used").isEqualTo(1);
  }

  @Test
  void theCacheDeletesOnlyFilesItNamed() {
    assertThat(ValidationCache.isEntry("0123456789abcdef0123456789abcdef.entry")).isTrue();
    assertThat(ValidationCache.isTemp(".entry-4242-1f2e3d.tmp")).isTrue();
    for (String name :
        List.of(
            "notes.entry",
            "0123456789ABCDEF0123456789ABCDEF.entry",
            "0123456789abcdef0123456789abcdef0.entry",
            "upload.tmp",
            ".entry-.tmp",
            ".entry-42.tmp",
            ".entry-4a-1f.tmp",
            ".entry-42-1f.tmp.part")) {
      assertThat(ValidationCache.isEntry(name) || ValidationCache.isTemp(name)).as(name).isFalse();
    }
  }

  /**
   * A true entry of {@code tape} made in a cache of the user's, and the same entry forged to say
   * the tape exits 3 — believed, when it is the user's own in the user's own folder.
   */
  private Path trueEntryAndAForgeryTheCacheWouldBelieve(Path tape) throws IOException {
    Path mine = dir.resolve("mine");
    checked(cache(mine), tape);
    Path entry = ForgedEntry.find(mine);
    byte[] bytes = Files.readAllBytes(entry);
    Files.write(entry, ForgedEntry.exitCode(bytes, 3));
    assertThat(exitCode(checked(cache(mine), tape)))
        .as("the forgery, in the user's own folder")
        .isEqualTo(3);
    Files.write(entry, bytes);
    return entry;
  }

  private static byte[] forged(Path entry) throws IOException {
    return ForgedEntry.exitCode(Files.readAllBytes(entry), 3);
  }

  @Test
  void anEntryInAFolderOthersCanWriteIsNotBelieved() throws Exception {
    Path tape = settled(bigTape('a', 0));
    Path entry = trueEntryAndAForgeryTheCacheWouldBelieve(tape);
    Path open = dir.resolve("open");
    int me = PrivateFolder.user().getAsInt();
    ForgedEntry.plant(dir.resolve("mine"), entry, forged(entry), open, me);
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path under = dir.resolve("under");
    Path forged = ForgedEntry.plant(dir.resolve("mine"), entry, forged(entry), under, me);
    Files.setPosixFilePermissions(forged.getParent(), PosixFilePermissions.fromString("rwxrwx---"));

    ValidationCache inOpen = cache(open);
    ValidationCache inGroupWritable = cache(under);

    assertThat(exitCode(checked(inOpen, tape))).isZero();
    assertThat(exitCode(checked(inGroupWritable, tape))).isZero();
    assertThat(inOpen.validations() + inGroupWritable.validations()).isEqualTo(2);
  }

  @Test
  void anEntryOfAnotherUserOrInTheirFolderIsNotBelieved() throws Exception {
    assumeThat(PrivateFolder.user()).as("chown takes root").hasValue(0);
    Path tape = settled(bigTape('a', 0));
    Path entry = trueEntryAndAForgeryTheCacheWouldBelieve(tape);
    Path theirs = dir.resolve("theirs");
    ForgedEntry.plant(dir.resolve("mine"), entry, forged(entry), theirs, OTHER);
    Files.write(entry, forged(entry));
    Files.setAttribute(entry, "unix:uid", OTHER); // a foreign file in the user's own folder

    ValidationCache inTheirs = cache(theirs);
    ValidationCache inMine = cache(dir.resolve("mine"));

    assertThat(exitCode(checked(inTheirs, tape))).isZero();
    assertThat(exitCode(checked(inMine, tape))).isZero();
    assertThat(inTheirs.validations() + inMine.validations()).isEqualTo(2);
    assertThat(Files.getAttribute(ForgedEntry.find(theirs), "unix:uid"))
        .as("nothing written in their folder")
        .isEqualTo(OTHER);
  }
}
