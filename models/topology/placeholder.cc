// replaced by the topology sources
