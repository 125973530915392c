from django.urls import path

from . import api, score_api, stream_api

urlpatterns = [
    path("boards", api.BoardListView.as_view(), name="boards"),
    path("boards/<str:board>", api.BoardDetailView.as_view(), name="board"),
    path("boards/<str:board>/score", score_api.ScoreView.as_view(), name="board-score"),
    path("games", api.GameListView.as_view(), name="games"),
    path("games/<int:game_id>", api.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/join", api.GameJoinView.as_view(), name="game-join"),
    path("games/<int:game_id>/leave", api.GameLeaveView.as_view(), name="game-leave"),
    path(
        "games/<int:game_id>/invitation/accept",
        api.GameAcceptView.as_view(),
        name="game-invitation-accept",
    ),
    path(
        "games/<int:game_id>/invitation/decline",
        api.GameDeclineView.as_view(),
        name="game-invitation-decline",
    ),
    path("games/<int:game_id>/start", api.GameStartView.as_view(), name="game-start"),
    path("games/<int:game_id>/cancel", api.GameCancelView.as_view(), name="game-cancel"),
    path("games/<int:game_id>/extra-time", api.GameExtraTimeView.as_view(), name="game-extra-time"),
    path("games/<int:game_id>/reclaim", api.GameReclaimView.as_view(), name="game-reclaim"),
    path("games/<int:game_id>/legal-actions", api.LegalActionsView.as_view(), name="game-legal"),
    path("games/<int:game_id>/actions", api.ActionView.as_view(), name="game-actions"),
    path("games/<int:game_id>/moves", api.MoveListView.as_view(), name="game-moves"),
    path("games/<int:game_id>/events", stream_api.GameEventsView.as_view(), name="game-events"),
    path("vacations", api.VacationListView.as_view(), name="vacations"),
    path("vacations/<int:vacation_id>/end", api.VacationEndView.as_view(), name="vacation-end"),
    path("games/<int:game_id>/result", api.ResultView.as_view(), name="game-result"),
    path("games/<int:game_id>/record", api.RecordView.as_view(), name="game-record"),
]
