package dev.agentdouble.recorder.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {
  @TempDir Path dir;

  private record Rec(int tag, long time, byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Rec r && r.tag == tag && r.time == time && Arrays.equals(r.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }

  private static List<Rec> read(Spool spool) throws IOException {
    List<Rec> all = new ArrayList<>();
    spool.forEach((tag, time, bytes) -> all.add(new Rec(tag, time, bytes)));
    return all;
  }

  @Test
  void givesBackEveryRecordInOrderAsOftenAsAsked() throws IOException {
    Random random = new Random(7);
    List<Rec> written = new ArrayList<>();
    try (Spool spool = Spool.create(dir)) {
      // empty, small, and larger than the spool's buffers
      for (int size : new int[] {0, 1, 100, 65536, 3 << 20, 17, (1 << 20) - 5}) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        Rec r = new Rec(written.size() % 3, random.nextLong(), bytes);
        written.add(r);
        byte[] framed = new byte[size + 10];
        System.arraycopy(bytes, 0, framed, 5, size);
        spool.append(r.tag(), r.time(), framed, 5, size);
      }

      assertThat(read(spool)).containsExactlyElementsOf(written);
      assertThat(read(spool)).containsExactlyElementsOf(written);

      spool.append(2, 99, new byte[] {1, 2, 3}, 0, 3);
      written.add(new Rec(2, 99, new byte[] {1, 2, 3}));
      assertThat(read(spool)).containsExactlyElementsOf(written);
    }
  }

  @Test
  void leavesNoFileBehindEvenWhileOpen() throws IOException {
    try (Spool spool = Spool.create(dir)) {
      spool.append(0, 0, new byte[1000], 0, 1000);
      assertThat(read(spool)).hasSize(1);
      try (Stream<Path> files = Files.list(dir)) {
        assertThat(files).isEmpty();
      }
    }
  }

  @Test
  void goesToTheTemporaryFolderWhenItsOwnCannotTakeIt() throws IOException {
    try (Spool spool = Spool.create(dir.resolve("does-not-exist"))) {
      spool.append(1, 2, new byte[] {42}, 0, 1);
      assertThat(read(spool)).containsExactly(new Rec(1, 2, new byte[] {42}));
    }
  }
}
