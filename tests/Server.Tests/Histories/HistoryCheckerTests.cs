namespace Folio.Server.Tests.Histories;

/// <summary>The checker on hand-made histories: it must pass what is linearizable and catch what is not.</summary>
public sealed class HistoryCheckerTests
{
    private readonly List<HistoryOperation> _operations = [];
    private readonly List<long> _kills = [];

    [Fact]
    public void Check_PassesConcurrentReadOfNewValue_WhenWriteStillRunning()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Write("a", "v2", expected: "v1", 2, 10, etag: 2);
        Read("a", "v2", 3, 4, etag: 2);
        Read("a", "v2", 11, 12, etag: 2);

        Assert.Empty(Check().Anomalies);
    }

    [Fact]
    public void Check_FindsStaleRead_AfterAcknowledgedCompareAndSet()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Write("a", "v2", expected: "v1", 2, 5, etag: 2);
        Read("a", "v1", 6, 7, etag: 1);

        HistoryAnomaly anomaly = Assert.Single(Check().Anomalies);
        Assert.Equal(AnomalyKind.NotLinearizable, anomaly.Kind);
        Assert.Equal("a", anomaly.Key);
    }

    [Fact]
    public void Check_FindsLostWrite_WhenFinalStateIsOlderThanAcknowledgedWrite()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Write("a", "v2", expected: "v1", 2, 3, etag: 2);
        _kills.Add(4);
        Final(5, 6, ("a", "v1", null, 1));

        HistoryReport report = Check();

        Assert.Contains(report.Anomalies, a => a.Kind == AnomalyKind.LostWrite && a.Key == "a");
        Assert.Contains(report.Anomalies, a => a.Kind == AnomalyKind.NotLinearizable && a.Key == "a");
    }

    [Fact]
    public void Check_FindsFracturedRead_WhenLoadSeesOneDocumentOfBatchAndAnOlderSibling()
    {
        Write("a", "a1", expected: null, 0, 1, etag: 1);
        Write("b", "b1", expected: null, 0, 1, etag: 2);
        Batch("B7", 2, 5, [3, 4], ("a", "a2", "a1"), ("b", "b2", "b1"));
        MultiRead(6, 7, ("a", "a2", "B7", 3), ("b", "b1", null, 2));

        HistoryReport report = Check();

        Assert.Contains(report.Anomalies, a => a.Kind == AnomalyKind.FracturedRead && a.Key == "b");
    }

    [Fact]
    public void Check_PassesSnapshotThatSeesBatchAndNewerSibling()
    {
        Write("a", "a1", expected: null, 0, 1, etag: 1);
        Write("b", "b1", expected: null, 0, 1, etag: 2);
        Batch("B7", 2, 5, [3, 4], ("a", "a2", "a1"), ("b", "b2", "b1"));
        Write("b", "b3", expected: "b2", 6, 7, etag: 5);
        MultiRead(8, 9, ("a", "a2", "B7", 3), ("b", "b3", null, 5));

        Assert.Empty(Check().Anomalies);
    }

    [Fact]
    public void Check_FindsFracturedRead_EvenWhenBatchOutcomeIsUnknown()
    {
        Write("a", "a1", expected: null, 0, 1, etag: 1);
        Write("b", "b1", expected: null, 0, 1, etag: 2);
        Batch("B7", 2, null, [], ("a", "a2", "a1"), ("b", "b2", "b1"));
        Query(6, 7, ("a", "a2", "B7", 3), ("b", "b1", null, 2));

        Assert.Contains(Check().Anomalies, a => a.Kind == AnomalyKind.FracturedRead);
    }

    [Fact]
    public void Check_PassesUnknownWrite_EitherWay()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Write("a", "v2", expected: "v1", 2, null, etag: 0);
        Write("b", "w1", expected: null, 0, 1, etag: 2);
        Write("b", "w2", expected: "w1", 2, null, etag: 0);
        _kills.Add(3);
        Final(4, 5, ("a", "v2", null, 3), ("b", "w1", null, 2));

        HistoryReport report = Check();

        Assert.Empty(report.Anomalies);
        Assert.Equal(2, report.Unknown);
    }

    [Fact]
    public void Check_FindsUnknownWriteTakingEffect_AfterTheKillThatCutIt()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Write("a", "v2", expected: "v1", 2, null, etag: 0);
        _kills.Add(3);
        Read("a", "v1", 4, 5, etag: 1);
        Read("a", "v2", 6, 7, etag: 2);

        Assert.Contains(Check().Anomalies, a => a.Kind == AnomalyKind.NotLinearizable);
    }

    [Fact]
    public void Check_PassesRefusedCompareAndSet_OnlyWhenValueDiffered()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Write("a", "v2", expected: "v1", 2, 3, etag: 2);
        Refused("a", "v3", expected: "v1", 4, 5);

        Assert.Empty(Check().Anomalies);

        Refused("a", "v4", expected: "v2", 6, 7);
        Read("a", "v2", 8, 9, etag: 2);

        Assert.Contains(Check().Anomalies, a => a.Kind == AnomalyKind.NotLinearizable);
    }

    [Fact]
    public void Check_FindsReadOfValueNobodyWrote()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Read("a", "v9", 2, 3, etag: 7);

        Assert.Contains(Check().Anomalies, a => a.Kind == AnomalyKind.NotLinearizable);
    }

    [Fact]
    public void Check_FindsReadsGoingBackwards_AcrossConcurrentWrites()
    {
        Write("a", "v1", expected: null, 0, 1, etag: 1);
        Write("a", "v2", expected: "v1", 2, 20, etag: 2);
        Read("a", "v2", 3, 4, etag: 2);
        Read("a", "v1", 5, 6, etag: 1);

        Assert.Contains(Check().Anomalies, a => a.Kind == AnomalyKind.NotLinearizable);
    }

    private HistoryReport Check() => HistoryChecker.Check(new History(_operations, _kills));

    private HistoryOperation Add(OperationKind kind, long invoked, long? completed, OperationOutcome outcome, IReadOnlyList<KeyWrite>? writes = null, string? batch = null)
    {
        var operation = new HistoryOperation
        {
            Id = _operations.Count + 1,
            Client = _operations.Count % 4,
            Kind = kind,
            Invoked = invoked,
            Writes = writes ?? [],
            Batch = batch,
        };
        operation.Completed = completed ?? 0;
        operation.Outcome = completed is null ? OperationOutcome.Unknown : outcome;
        _operations.Add(operation);
        return operation;
    }

    private void Write(string key, string value, string? expected, long invoked, long? completed, long etag)
    {
        HistoryOperation operation = Add(OperationKind.Write, invoked, completed, OperationOutcome.Ok, [new KeyWrite(key, value, expected)]);
        if (completed is not null)
            operation.WriteEtags = [etag];
    }

    private void Refused(string key, string value, string expected, long invoked, long completed) =>
        Add(OperationKind.Write, invoked, completed, OperationOutcome.Failed, [new KeyWrite(key, value, expected)]);

    private void Batch(string batch, long invoked, long? completed, long[] etags, params (string Key, string Value, string? Expected)[] writes)
    {
        HistoryOperation operation = Add(OperationKind.Batch, invoked, completed, OperationOutcome.Ok, writes.Select(w => new KeyWrite(w.Key, w.Value, w.Expected)).ToList(), batch);
        operation.WriteEtags = etags;
    }

    private void Read(string key, string value, long invoked, long completed, long etag) =>
        Add(OperationKind.Read, invoked, completed, OperationOutcome.Ok).Reads = [new Observed(key, value, null, etag)];

    private void MultiRead(long invoked, long completed, params (string Key, string Value, string? Batch, long Etag)[] seen) =>
        Add(OperationKind.MultiRead, invoked, completed, OperationOutcome.Ok).Reads = seen.Select(s => new Observed(s.Key, s.Value, s.Batch, s.Etag)).ToList();

    private void Query(long invoked, long completed, params (string Key, string Value, string? Batch, long Etag)[] seen) =>
        Add(OperationKind.Query, invoked, completed, OperationOutcome.Ok).Reads = seen.Select(s => new Observed(s.Key, s.Value, s.Batch, s.Etag)).ToList();

    private void Final(long invoked, long completed, params (string Key, string Value, string? Batch, long Etag)[] seen) =>
        Add(OperationKind.FinalRead, invoked, completed, OperationOutcome.Ok).Reads = seen.Select(s => new Observed(s.Key, s.Value, s.Batch, s.Etag)).ToList();
}
