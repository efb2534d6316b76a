package dev.agentdouble.fake.internal.control;

import java.net.URI;

/**
 * Readies the JDK's sockets while the run parses its argv, on a second core: the first {@code new
 * Socket()} of a JVM links a method handle that JDK 17 cannot archive (it spins a {@code
 * LambdaForm} class), and the first address initialises {@code InetAddress} and reads {@code
 * net.properties}, together most of what a control call costs a fresh fake. No connection is made,
 * so nothing changes for the server: the call itself connects as it always did, only sooner. A
 * thread of its own (a class, not a lambda: start-up), a daemon, silent: any problem is the call's
 * to report.
 */
final class WarmUp extends Thread {
  private final String url;

  WarmUp(String url) {
    super("agentdouble-control-warm-up");
    this.url = url;
    setDaemon(true);
  }

  /** Starts readying the sockets for a control call to {@code url} (the fake's AGENTDOUBLE_URL). */
  static void start(String url) {
    new WarmUp(url).start();
  }

  @Override
  public void run() {
    try {
      Http1.ready(URI.create(url));
    } catch (Exception e) {
      // the control call says what is wrong, in its own words
    }
  }
}
