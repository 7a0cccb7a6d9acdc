/*
 * Copyright: bigdata.spark developers
 * Apache License 2.0 (see LICENSE)
 */
package org.apache.hadoop.yarn.server.resourcemanager.security;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.service.Service;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ResourceManager's tracker of delegation token renewal tasks, as bigdata.spark's build of Hadoop 3.3 ships it
 * (tools/build_dist.py compiles this file against the release's own classes and puts it in share/hadoop/yarn/lib,
 * ahead of hadoop-yarn-server-resourcemanager on the classpath; tools/dist/README.md says why).
 *
 * <p>Hadoop 3.3's tracker passes over the renewal tasks in a loop with no pause (YARN-11178, fixed in 3.4.0 with a
 * 1 ms sleep), so with Kerberos on, the active ResourceManager keeps one CPU core busy for as long as it runs, idle
 * or not. This tracker does the same job, a pass at a time: a renewal task still running after
 * {@code yarn.resourcemanager.delegation-token-renewer.thread-timeout} is cancelled and retried after
 * {@code ...thread-retry-interval}, up to {@code ...thread-retry-max-attempts} attempts. Between passes it sleeps
 * {@code bigdata.spark.token-tracker.pause-ms} (a JVM system property, 100 by default). It also forgets the tasks that
 * ended (3.3 keeps every one, YARN-11398) and ends when the renewer service stops (3.3's never does).
 *
 * <p>The renewer's state is private to it; this class reads it by name, and when a release lacks one of those names
 * it logs an error and ends: renewals then run without a timeout, as before Hadoop 3.3.2.
 */
final class DelegationTokenRenewer$DelegationTokenRenewerPoolTracker implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(DelegationTokenRenewer.class);

  static final long PAUSE_MS = Long.getLong("bigdata.spark.token-tracker.pause-ms", 100L);

  private final DelegationTokenRenewer renewer;

  DelegationTokenRenewer$DelegationTokenRenewerPoolTracker(DelegationTokenRenewer renewer) {
    this.renewer = renewer;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void run() {
    final Map<Object, Future<?>> tasks;
    final long timeoutMs;
    final long retryIntervalMs;
    final int maxAttempts;
    final Timer timer;
    final Class<?> appEvent;
    final Method attemptOf;
    final Method retryOf;
    try {
      tasks = (Map<Object, Future<?>>) field("futures");
      timeoutMs = (Long) field("tokenRenewerThreadTimeout");
      retryIntervalMs = (Long) field("tokenRenewerThreadRetryInterval");
      maxAttempts = (Integer) field("tokenRenewerThreadRetryMaxAttempts");
      timer = (Timer) field("renewalTimer");
      String outer = DelegationTokenRenewer.class.getName();
      attemptOf = Class.forName(outer + "$DelegationTokenRenewerEvent").getDeclaredMethod("getAttempt");
      attemptOf.setAccessible(true);
      appEvent = Class.forName(outer + "$AbstractDelegationTokenRenewerAppEvent");
      retryOf = DelegationTokenRenewer.class.getDeclaredMethod("getTimerTask", appEvent);
      retryOf.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.error("bigdata.spark token renewal tracker: this DelegationTokenRenewer is not Hadoop 3.3's; "
          + "token renewals run without a timeout", e);
      return;
    }
    LOG.info("bigdata.spark token renewal tracker: a pass over the renewal tasks every {} ms, timeout {} ms",
        PAUSE_MS, timeoutMs);
    while (renewer.getServiceState() != Service.STATE.STOPPED) {
      for (Map.Entry<Object, Future<?>> entry : tasks.entrySet()) {
        Object event = entry.getKey();
        Future<?> task = entry.getValue();
        try {
          task.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          if (!task.isDone()) {
            task.cancel(true);
            tasks.remove(event, task);
            retry(event, timer, appEvent, attemptOf, retryOf, maxAttempts, retryIntervalMs);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (Exception e) {
          // The task failed or was cancelled: the renewer logged why.
          LOG.debug("token renewal task for {} ended with {}", event, e.toString());
        }
        if (task.isDone()) {
          tasks.remove(event, task);
        }
      }
      try {
        Thread.sleep(PAUSE_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void retry(Object event, Timer timer, Class<?> appEvent, Method attemptOf, Method retryOf, int maxAttempts,
      long retryIntervalMs) {
    try {
      int attempt = (Integer) attemptOf.invoke(event);
      if (appEvent.isInstance(event) && attempt < maxAttempts) {
        timer.schedule((TimerTask) retryOf.invoke(renewer, event), retryIntervalMs);
      } else {
        LOG.info("token renewal task for {} timed out on attempt {} of {}: not retried", event, attempt, maxAttempts);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("token renewal task for {} timed out and could not be retried", event, e);
    }
  }

  private Object field(String name) throws ReflectiveOperationException {
    Field f = DelegationTokenRenewer.class.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(renewer);
  }
}
