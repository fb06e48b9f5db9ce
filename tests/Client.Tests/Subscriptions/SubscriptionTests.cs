using System.Collections.Concurrent;
using Folio.Client.Exceptions;
using Folio.Client.Subscriptions;
using Folio.Client.Tests.Support;

namespace Folio.Client.Tests.Subscriptions;

[Collection(ServerCollection.Name)]
public class SubscriptionTests(TestServer server)
{
    [Fact]
    public async Task CreateGetDelete_ManageTheSubscriptionOverRest()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "big", Query = "from Orders where Total > 100" });
        SubscriptionState? state = await store.Subscriptions.GetAsync("big");
        Assert.Equal("Orders", state!.Collection);
        Assert.Equal(0, state.AcknowledgedEtag);
        Assert.Single(await store.Subscriptions.GetAllAsync());
        FolioException duplicate = await Assert.ThrowsAsync<FolioException>(() => store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "big", Query = "from Orders" }));
        Assert.Equal(System.Net.HttpStatusCode.Conflict, duplicate.Status);
        await store.Subscriptions.DeleteAsync("big");
        Assert.Null(await store.Subscriptions.GetAsync("big"));
    }

    [Fact]
    public async Task Worker_DeliversEveryMatchingDocument_AcknowledgesAndTheNextWorkerResumes()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "paid", Query = "from Orders where Paid = true" });
        var seen = new ConcurrentBag<string>();
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        await using (SubscriptionWorker<Order> worker = store.Subscriptions.GetSubscriptionWorker<Order>(new SubscriptionWorkerOptions { SubscriptionName = "paid", MaxDocsPerBatch = 1 }))
        {
            Task run = worker.RunAsync(batch =>
            {
                foreach (SubscriptionItem<Order> item in batch.Items)
                {
                    Assert.True(item.Result!.Paid);
                    Assert.Equal(item.Id, item.Result.Id);
                    seen.Add(item.Id);
                }
                return Task.CompletedTask;
            }, timeout.Token);
            await Wait.UntilAsync(async () => (await store.Subscriptions.GetAsync("paid"))!.EtagLag == 0 && seen.Count == 2, "the first two paid orders");
            await worker.DisposeAsync();
            await run;
            Assert.Equal(2, worker.AcknowledgedBatches);
        }
        Assert.Equal(["orders/1", "orders/4"], seen.Order());

        await using (var session = store.OpenAsyncSession())
        {
            await session.StoreAsync(new Order { Id = "orders/5", Paid = true });
            await session.StoreAsync(new Order { Id = "orders/6", Paid = false });
            await session.SaveChangesAsync();
        }
        var later = new ConcurrentBag<string>();
        await using SubscriptionWorker<Order> next = store.Subscriptions.GetSubscriptionWorker<Order>("paid");
        Task second = next.RunAsync(batch =>
        {
            foreach (SubscriptionItem<Order> item in batch.Items)
                later.Add(item.Id);
            return Task.CompletedTask;
        }, timeout.Token);
        await Wait.UntilAsync(() => Task.FromResult(later.Contains("orders/5")), "orders/5 delivered to the second worker");
        await next.DisposeAsync();
        await second;
        Assert.Equal(["orders/5"], later);
    }

    [Fact]
    public async Task Worker_RetriesABatchTheHandlerFailed_WithoutAcknowledgingIt()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "all", Query = "from Companies" });
        int attempts = 0;
        var delivered = new ConcurrentBag<string>();
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        await using SubscriptionWorker<Company> worker = store.Subscriptions.GetSubscriptionWorker<Company>(new SubscriptionWorkerOptions { SubscriptionName = "all", RetryDelay = TimeSpan.FromMilliseconds(10) });
        Task run = worker.RunAsync(batch =>
        {
            if (Interlocked.Increment(ref attempts) <= 2)
                throw new InvalidOperationException("the handler failed");
            foreach (SubscriptionItem<Company> item in batch.Items)
                delivered.Add(item.Id);
            return Task.CompletedTask;
        }, timeout.Token);
        await Wait.UntilAsync(() => Task.FromResult(worker.AcknowledgedBatches >= 1), "the batch acknowledged after retries");
        await worker.DisposeAsync();
        await run;
        Assert.Equal(3, attempts);
        Assert.Equal(["companies/1", "companies/2"], delivered.Order());
    }

    [Fact]
    public async Task Worker_ForAMissingSubscription_StopsWithNotFound()
    {
        using DocumentStore store = await server.NewStoreAsync();
        await using SubscriptionWorker<Order> worker = store.Subscriptions.GetSubscriptionWorker<Order>("none");
        SubscriptionException e = await Assert.ThrowsAsync<SubscriptionException>(() => worker.RunAsync(_ => Task.CompletedTask));
        Assert.Equal("NotFound", e.Code);
    }

    [Fact]
    public async Task Worker_TakingOver_EndsTheFirstWorkersRunWithTakenOver()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "s", Query = "from Orders" });
        using var timeout = new CancellationTokenSource(Wait.Timeout);
        await using SubscriptionWorker<Order> first = store.Subscriptions.GetSubscriptionWorker<Order>("s");
        Task firstRun = first.RunAsync(_ => Task.CompletedTask, timeout.Token);
        await Wait.UntilAsync(() => Task.FromResult(first.Connections == 1), "the first worker connected");
        await using SubscriptionWorker<Order> second = store.Subscriptions.GetSubscriptionWorker<Order>(new SubscriptionWorkerOptions { SubscriptionName = "s", Strategy = SubscriptionOpeningStrategy.TakeOver });
        Task secondRun = second.RunAsync(_ => Task.CompletedTask, timeout.Token);
        SubscriptionException e = await Assert.ThrowsAsync<SubscriptionException>(() => firstRun);
        Assert.Equal("TakenOver", e.Code);
        await second.DisposeAsync();
        await secondRun;
    }

    [Fact]
    public async Task Worker_StopsWithTheHandlersException_WhenItFailsMoreThanTheRetries_AndTheBatchStaysUnacknowledged()
    {
        using DocumentStore store = await Seed.OrdersAsync(server);
        await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "failing", Query = "from Companies" });
        int attempts = 0;
        await using SubscriptionWorker<Company> worker = store.Subscriptions.GetSubscriptionWorker<Company>(new SubscriptionWorkerOptions
        {
            SubscriptionName = "failing",
            RetryDelay = TimeSpan.FromMilliseconds(10),
            MaxHandlerRetries = 2,
        });
        InvalidOperationException e = await Assert.ThrowsAsync<InvalidOperationException>(() => worker.RunAsync(_ =>
        {
            Interlocked.Increment(ref attempts);
            throw new InvalidOperationException("poison batch");
        }).WaitAsync(Wait.Timeout));
        Assert.Equal("poison batch", e.Message);
        Assert.Equal(3, attempts);
        Assert.Equal(0, (await store.Subscriptions.GetAsync("failing"))!.AcknowledgedEtag);
    }
}
