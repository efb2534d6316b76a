package dev.agentdouble.fake.internal.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class FreshUuidTest {
  private static final Pattern V4 =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

  @Test
  void aFreshSessionIdIsALowerCaseVersion4UuidThatJavaReadsBackUnchanged() {
    for (int i = 0; i < 1_000; i++) {
      String id = Turn.freshUuid();
      assertTrue(V4.matcher(id).matches(), id);
      UUID read = UUID.fromString(id);
      assertEquals(4, read.version(), id);
      assertEquals(2, read.variant(), id);
      assertEquals(id, read.toString());
    }
  }

  @Test
  void freshSessionIdsDoNotRepeat() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      assertTrue(seen.add(Turn.freshUuid()), "a repeated id after " + i);
    }
  }
}
