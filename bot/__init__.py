"""Delivery channels built on the deployment sheet: Hub bot, GitHub Action entry, webhook server,
crawler. They render :class:`scorer.sheet.Sheet` objects and never re-compute analyses."""
