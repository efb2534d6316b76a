package dev.agentdouble.fake;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What another local user can write without the victim's help: an entry of the replay cache, whose
 * key (the tape's path, device, inode, size and times, the fake's jars) and format are public. Made
 * here from a true entry of the same tape, with another exit code and its checksum made again: an
 * entry the cache would believe, were it in a folder only the user can write.
 */
public final class ForgedEntry {
  private ForgedEntry() {}

  /** The entry's bytes, saying the tape exits {@code code}. */
  public static byte[] exitCode(byte[] entry, int code) {
    byte[] forged = entry.clone();
    ByteBuffer.wrap(forged).putInt(ending(forged) + 1, code);
    return signed(forged);
  }

  /**
   * The entry's bytes, saying every line's value is compact: a line with whitespace in its value is
   * then played as it stands in the tape, not compacted as the CLI writes it.
   */
  public static byte[] allCompact(byte[] entry) {
    ByteBuffer b = ByteBuffer.wrap(entry);
    int count = ending(entry) + 1 + 4; // the exit code
    int lines = b.getInt(count);
    int rest = count + 4 + 4 * lines;
    ByteBuffer forged = ByteBuffer.allocate(entry.length - 4 * lines);
    forged.put(entry, 0, count).putInt(0).put(entry, rest, entry.length - rest);
    return signed(forged.array());
  }

  /** Where the ending's kind is: after the magic, the format, the key and the ending's time. */
  private static int ending(byte[] entry) {
    int at = 8 + 2 + (ByteBuffer.wrap(entry).getShort(8) & 0xffff) + 8;
    if (entry[at] != 'e') {
      throw new IllegalArgumentException("not an entry of a tape that exits");
    }
    return at;
  }

  /** The entry with its checksum made again: FNV-1a, 64 bits, of all but the checksum. */
  private static byte[] signed(byte[] entry) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < entry.length - 8; i++) {
      h = (h ^ (entry[i] & 0xff)) * 0x100000001b3L;
    }
    ByteBuffer.wrap(entry).putLong(entry.length - 8, h);
    return entry;
  }

  /** The one entry under {@code cache}, wherever the cache keeps it. */
  public static Path find(Path cache) throws IOException {
    try (Stream<Path> files = Files.walk(cache)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".entry"))
          .reduce(
              (a, b) -> {
                throw new AssertionError("more than one entry: " + a + ", " + b);
              })
          .orElseThrow(() -> new AssertionError("no entry under " + cache));
    }
  }

  /**
   * Writes {@code forged}, an entry for {@code entry}'s tape, at the place {@code entry} has under
   * {@code cache}, but under {@code theirs}, the folders made, and gives them all to {@code uid}.
   */
  public static Path plant(Path cache, Path entry, byte[] forged, Path theirs, int uid)
      throws IOException {
    Path at = theirs.resolve(cache.relativize(entry));
    Files.createDirectories(at.getParent());
    Files.write(at, forged);
    for (Path p = at; p.startsWith(theirs); p = p.getParent()) {
      Files.setAttribute(p, "unix:uid", uid);
    }
    return at;
  }
}
