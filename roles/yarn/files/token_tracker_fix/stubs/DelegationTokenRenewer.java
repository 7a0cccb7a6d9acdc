/*
 * Copyright: bigdata.spark developers
 * Apache License 2.0 (see LICENSE)
 */
package org.apache.hadoop.yarn.server.resourcemanager.security;

import org.apache.hadoop.service.AbstractService;

/**
 * Compile-time stand-in for the ResourceManager's DelegationTokenRenewer (its name and superclass only): compiled
 * beside it, the tracker's own class file is never mistaken for the nested class the real one declares under the same
 * binary name. It is not packaged; at run time the release's class is used.
 */
public class DelegationTokenRenewer extends AbstractService {
  public DelegationTokenRenewer() {
    super("stub");
  }
}
