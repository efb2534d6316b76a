package dev.agentdouble.fake.internal.run;

import dev.agentdouble.fake.internal.process.ProcessClock;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.files.PrivateFolder;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.TapeScanner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What the fake learnt of the big tapes it validated, kept between runs so that a tape replayed
 * again is copied, not parsed: a {@link Player.Checked} without its header (read again, one line)
 * for each tape file, keyed by the file's identity — its absolute path, size, modification and
 * change times (ns), device and inode — and by the build of the fake that checked it. A tape
 * written since has another identity, so it is validated again.
 *
 * <p>Tapes under {@link #MIN_TAPE} bytes never come here: their start-up path stays as it is. The
 * folder the user names (or the default one) is left as it is: the entries are kept in a folder of
 * the cache's own inside it, {@code agentdouble-replay-UID}, made owner-only, and taken from there
 * only when it is a {@link PrivateFolder} and the entry the user's own file, checked on each read
 * as on each write: an entry someone else could have written is never believed. Each entry is
 * written in a temp file and renamed, named by a hash of its key (never the tape's name), and the
 * oldest beyond {@link #KEPT} are deleted; nothing else is ever deleted. Any problem with the cache
 * (a folder that cannot be made or is not private, an entry unreadable, corrupt or not the user's,
 * no room) costs a full validation and nothing else, silently (a replay's stderr is the tape's):
 * the cache only ever makes a run faster, never changes what it does.
 */
public final class ValidationCache {
  /** The least size of a tape whose validation is kept. */
  static final long MIN_TAPE = 256 * 1024;

  /** How many entries the folder keeps, at most. */
  static final int KEPT = 64;

  /**
   * How long a tape must have stood unchanged before its validation is kept: a tape written again
   * within the file system's clock tick of its last change could keep its times, so one changed
   * just before it was read is validated each time, until it settles.
   */
  public static final long SETTLED_MS = 100;

  /** An entry's first bytes: "ADRC" and the version of the format. */
  private static final int MAGIC = 0x41445243;

  private static final int FORMAT = 1;

  private static final String SUFFIX = ".entry";

  /** A temp file's name: {@code .entry-PID-HEX.tmp}. */
  private static final String TEMP_PREFIX = ".entry-";

  private static final String TEMP_SUFFIX = ".tmp";

  /** The name of the cache's own folder, inside the one named, before the user's id. */
  static final String FOLDER_PREFIX = "agentdouble-replay-";

  /** The biggest entry read: 16 bytes a big value, of 64 KiB or more each. */
  private static final long MAX_ENTRY = 4L << 20;

  private final Path named;
  private final LongSupplier clock;
  private int validations;

  /** A cache in {@code named}, the folder the user named, which it leaves as it is. */
  public ValidationCache(Path named) {
    this(named, WallClock.INSTANCE);
  }

  /**
   * A cache in {@code named} that tells how long a tape stood unchanged by {@code clock}
   * (milliseconds since the epoch, as a file's change time is), the wall clock but in tests.
   */
  public ValidationCache(Path named, LongSupplier clock) {
    this.named = named;
    this.clock = clock;
  }

  /** {@link System#currentTimeMillis()}: a class, not a lambda, for the fake's start-up. */
  static final class WallClock implements LongSupplier {
    static final WallClock INSTANCE = new WallClock();

    private WallClock() {}

    @Override
    public long getAsLong() {
      return System.currentTimeMillis();
    }
  }

  /** The cache's own folder in the one named, made first when {@code make}, when it is private. */
  private Optional<PrivateFolder> folder(boolean make) {
    OptionalInt user = PrivateFolder.user(); // no lambdas here: each would cost a replay classes
    if (user.isEmpty()) {
      return Optional.empty();
    }
    Path folder = named.resolve(FOLDER_PREFIX + user.getAsInt());
    return make ? PrivateFolder.make(folder) : PrivateFolder.of(folder);
  }

  /** How many tapes this cache validated in full, for tests. */
  int validations() {
    return validations;
  }

  /** The tape's validation, from the entry of its identity, or made and kept. */
  public Player.Checked checked(TapeSource source) throws IOException {
    long started = clock.getAsLong();
    Path file = source.file().get();
    long size = source.fileSize().getAsLong();
    Optional<Identity> identity = identity(file, size);
    if (identity.isPresent()) {
      Optional<Player.Checked> kept = lookUp(source, identity.get());
      if (kept.isPresent()) {
        return kept.get();
      }
    }
    validations++;
    Player.Checked checked = Player.validate(source);
    if (identity.isPresent() && identity.get().changedBefore(started - SETTLED_MS)) {
      Optional<Identity> after = identity(file, size);
      if (after.isPresent() && after.get().key.equals(identity.get().key)) {
        keep(identity.get(), checked);
      }
    }
    return checked;
  }

  /** A tape file's identity, with the build of the fake, as one key; its change time apart. */
  private record Identity(String key, long changedMs) {
    boolean changedBefore(long ms) {
      return changedMs < ms;
    }
  }

  /**
   * The identity of the file {@code size} bytes long; none when the file system does not tell it,
   * or the file there now has another size than the one open (renamed over since it was opened).
   */
  private static Optional<Identity> identity(Path file, long size) {
    try {
      Map<String, Object> a =
          Files.readAttributes(file, "unix:dev,ino,size,lastModifiedTime,ctime");
      if (!(a.get("size") instanceof Long length) || length != size) {
        return Optional.empty();
      }
      FileTime ctime = (FileTime) a.get("ctime");
      String key =
          file.toAbsolutePath()
              + "\n"
              + a.get("dev")
              + " "
              + a.get("ino")
              + " "
              + size
              + " "
              + ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS)
              + " "
              + ctime.to(TimeUnit.NANOSECONDS)
              + "\n"
              + build();
      return Optional.of(new Identity(key, ctime.toMillis()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // no unix view (another OS), or no file: no cache
    }
  }

  /** The build of the fake: the format and each class path entry with its size and time. */
  private static String build() {
    StringBuilder build = new StringBuilder("format ").append(FORMAT);
    for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      File f = new File(entry);
      build.append('\n').append(entry).append(' ').append(f.length());
      build.append(' ').append(f.lastModified());
    }
    return build.toString();
  }

  /** The entry's file in {@code folder}: a hash of the key, never the tape's name. */
  private static Path entry(PrivateFolder folder, String key) {
    return folder
        .path()
        .resolve(hex(fnv(key, 0xcbf29ce484222325L)) + hex(fnv(key, 0x84222325cbf29ce4L)) + SUFFIX);
  }

  private Optional<Player.Checked> lookUp(TapeSource source, Identity identity) {
    Optional<PrivateFolder> folder = folder(false);
    if (folder.isEmpty()) {
      return Optional.empty(); // none yet, or one someone else could have written in
    }
    Path entry = entry(folder.get(), identity.key);
    try {
      if (!folder.get().isOwn(entry) || Files.size(entry) > MAX_ENTRY) {
        return Optional.empty();
      }
      byte[] bytes = Files.readAllBytes(entry);
      Optional<Kept> kept = Kept.read(bytes, identity.key);
      if (kept.isEmpty()) {
        return Optional.empty();
      }
      Header header;
      try (InputStream in = source.open()) {
        header = new TapeScanner(source.name(), in).header();
      }
      entry.toFile().setLastModified(System.currentTimeMillis()); // the oldest go first
      Kept k = kept.get();
      return Optional.of(new Player.Checked(header, k.ending, k.notCompact, k.big));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // the tape is read again in full, which says what is wrong
    }
  }

  private void keep(Identity identity, Player.Checked checked) {
    Optional<PrivateFolder> made = folder(true);
    if (made.isEmpty()) {
      return; // a folder someone else could write in: keep nothing there
    }
    PrivateFolder folder = made.get();
    // a name of its own, not Files.createTempFile, whose SecureRandom costs a replay ~20 classes
    Path tmp =
        folder
            .path()
            .resolve(
                TEMP_PREFIX
                    + ProcessClock.pid()
                    + "-"
                    + Long.toHexString(System.nanoTime())
                    + TEMP_SUFFIX);
    try {
      Files.write(
          tmp,
          Kept.write(identity.key, checked),
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      try {
        Files.move(tmp, entry(folder, identity.key), StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        return;
      }
      tmp = null;
      prune(folder.path());
    } catch (IOException | RuntimeException e) {
      // not kept: the next run validates again
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) {
          // a temp file left behind is pruned with the entries
        }
      }
    }
  }

  /**
   * Deletes the oldest entries (and temp files of entries) beyond {@link #KEPT}: only files the
   * cache named, in its own folder.
   */
  private static void prune(Path folder) {
    File[] files = folder.toFile().listFiles();
    if (files == null) {
      return;
    }
    List<File> entries = new ArrayList<>();
    for (File f : files) {
      if (isEntry(f.getName()) || isTemp(f.getName())) {
        entries.add(f);
      }
    }
    while (entries.size() > KEPT) {
      File oldest = entries.get(0);
      for (File f : entries) {
        if (f.lastModified() < oldest.lastModified()) {
          oldest = f;
        }
      }
      oldest.delete();
      entries.remove(oldest);
    }
  }

  /** An entry's name: 32 hex digits, {@code .entry}. */
  static boolean isEntry(String name) {
    return name.length() == 32 + SUFFIX.length()
        && name.endsWith(SUFFIX)
        && hexDigits(name, 0, 32, false);
  }

  /** A temp file's name: {@code .entry-PID-HEX.tmp}. */
  static boolean isTemp(String name) {
    int from = TEMP_PREFIX.length();
    int to = name.length() - TEMP_SUFFIX.length();
    int dash = name.indexOf('-', from);
    return name.startsWith(TEMP_PREFIX)
        && name.endsWith(TEMP_SUFFIX)
        && dash > from
        && dash < to - 1
        && hexDigits(name, from, dash, true)
        && hexDigits(name, dash + 1, to, false);
  }

  private static boolean hexDigits(String s, int from, int to, boolean decimal) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9') && (decimal || !(c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return from < to;
  }

  /** What an entry holds: its key, and the tape's validation but its header. */
  private record Kept(Frame.Ending ending, int[] notCompact, List<Player.BigValue> big) {
    static byte[] write(String key, Player.Checked checked) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(MAGIC);
      out.writeInt(FORMAT);
      out.writeUTF(key);
      Frame.Ending ending = checked.ending();
      out.writeLong(ending.t());
      if (ending instanceof Frame.Exit exit) {
        out.writeByte('e');
        out.writeInt(exit.code());
      } else if (ending instanceof Frame.Kill kill) {
        out.writeByte('k');
        out.writeUTF(kill.signal());
      } else {
        out.writeByte('h');
        out.writeBoolean(((Frame.Hang) ending).closeStdout());
      }
      out.writeInt(checked.notCompactLines().length);
      for (int line : checked.notCompactLines()) {
        out.writeInt(line);
      }
      out.writeInt(checked.bigValues().size());
      for (Player.BigValue v : checked.bigValues()) {
        out.writeInt(v.line());
        out.writeLong(v.lineStart());
        out.writeLong(v.valueStart());
        out.writeLong(v.valueEnd());
      }
      out.writeLong(fnv(bytes.toByteArray(), bytes.size()));
      return bytes.toByteArray();
    }

    /** The entry in {@code bytes} when it is whole and for {@code key}; empty otherwise. */
    static Optional<Kept> read(byte[] bytes, String key) throws IOException {
      if (bytes.length < 16 || fnv(bytes, bytes.length - 8) != readLong(bytes, bytes.length - 8)) {
        return Optional.empty();
      }
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      if (in.readInt() != MAGIC || in.readInt() != FORMAT || !in.readUTF().equals(key)) {
        return Optional.empty();
      }
      long t = in.readLong();
      Frame.Ending ending =
          switch (in.readByte()) {
            case 'e' -> new Frame.Exit(t, in.readInt());
            case 'k' -> new Frame.Kill(t, in.readUTF());
            case 'h' -> new Frame.Hang(t, in.readBoolean());
            default -> null;
          };
      if (ending == null) {
        return Optional.empty();
      }
      int[] notCompact = new int[count(in, bytes.length / 4)];
      for (int i = 0; i < notCompact.length; i++) {
        notCompact[i] = in.readInt();
      }
      int n = count(in, bytes.length / 28);
      List<Player.BigValue> big = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        big.add(new Player.BigValue(in.readInt(), in.readLong(), in.readLong(), in.readLong()));
      }
      return Optional.of(new Kept(ending, notCompact, big));
    }

    private static int count(DataInputStream in, int most) throws IOException {
      int n = in.readInt();
      if (n < 0 || n > most) {
        throw new IOException("a count of " + n + " in an entry of the replay cache");
      }
      return n;
    }

    private static long readLong(byte[] b, int at) {
      long v = 0;
      for (int i = at; i < at + 8; i++) {
        v = v << 8 | (b[i] & 0xff);
      }
      return v;
    }
  }

  /** FNV-1a, 64 bits, of {@code text}'s UTF-16 units, from {@code basis}. */
  private static long fnv(String text, long basis) {
    long h = basis;
    for (int i = 0; i < text.length(); i++) {
      h = (h ^ text.charAt(i)) * 0x100000001b3L;
    }
    return h;
  }

  /** FNV-1a, 64 bits, of {@code bytes[0, len)}: an entry's checksum. */
  private static long fnv(byte[] bytes, int len) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < len; i++) {
      h = (h ^ (bytes[i] & 0xff)) * 0x100000001b3L;
    }
    return h;
  }

  private static String hex(long v) {
    String s = Long.toHexString(v);
    return "0".repeat(16 - s.length()) + s;
  }
}
