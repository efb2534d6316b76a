package dev.agentdouble.fake.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessClockTest {

  @Test
  void theUptimesSecondsAreReadToTheNanosecondWithoutAFloatingPointParse() {
    assertEquals(12_345_670_000_000L, ProcessClock.uptimeNanos("12345.67 98765.43\n"));
    assertEquals(5_000_000_000L, ProcessClock.uptimeNanos("5 1.00\n"));
    assertEquals(1_123_456_789L, ProcessClock.uptimeNanos("1.1234567891 2\n"));
    assertEquals(0, ProcessClock.uptimeNanos(""));
  }

  @Test
  void theProcessIdAndItsStartAreThisProcesss() {
    assertEquals(ProcessHandle.current().pid(), ProcessClock.pid());
    long before = System.nanoTime();
    long origin = ProcessClock.originNanos();
    assertTrue(origin <= System.nanoTime(), "the start is not after now");
    // a test JVM may have run for longer than the 5 s the clock trusts: then it is now
    assertTrue(before - origin < 6_000_000_000L, "the start is at most some 5 s back");
  }
}
