namespace Folio.Benchmarks.Soak;

/// <summary>One sample of the server process and of the latencies since the previous sample.</summary>
/// <param name="Minutes">Minutes since the load started.</param>
/// <param name="RssBytes">Resident set size.</param>
/// <param name="ManagedHeapBytes">The server's managed heap, as its stats report it.</param>
/// <param name="GcCommittedBytes">Memory the server's collector held committed as its last collection ended; gen0 allocation since comes on top.</param>
/// <param name="LiveBytes">What survived the server's last full blocking collection: its live managed data, which grows with a leak.</param>
/// <param name="Threads">The process's threads.</param>
/// <param name="Handles">The process's open file descriptors.</param>
/// <param name="LoadedDatabases">Databases open at the time.</param>
/// <param name="Operations">Per <see cref="SoakOperation"/>: how many completed in the interval, and their p99 in ms.</param>
/// <param name="Errors">Errors so far.</param>
/// <param name="Store">The soak database's size and the collector's counts, to tell a drift from the data's growth.</param>
public sealed record SoakSample(double Minutes, long RssBytes, long ManagedHeapBytes, long GcCommittedBytes, long LiveBytes, int Threads, int Handles, int LoadedDatabases, (long Count, double P99Ms)[] Operations, long Errors, SoakStoreSample Store);

/// <summary>What grows in the soak database and how much the collector has run, at one sample.</summary>
/// <param name="Documents">Documents in the soak database.</param>
/// <param name="Tombstones">Its tombstones (deletes are kept for the changes feed and indexes).</param>
/// <param name="DataFileBytes">Its documents' data file.</param>
/// <param name="Gen2Collections">Full collections since the server started.</param>
/// <param name="GcPausePercent">The share of time the collector paused the server, as .NET reports it for its recent collections.</param>
public sealed record SoakStoreSample(long Documents, long Tombstones, long DataFileBytes, long Gen2Collections, double GcPausePercent);
