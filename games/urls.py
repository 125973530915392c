from django.urls import path

from games.http import boards, games, lobby, log, play, score, stream, vacations

urlpatterns = [
    path("boards", boards.BoardListView.as_view(), name="boards"),
    path("boards/<str:board>", boards.BoardDetailView.as_view(), name="board"),
    path("boards/<str:board>/score", score.ScoreView.as_view(), name="board-score"),
    path("games", games.GameListView.as_view(), name="games"),
    path("games/<int:game_id>", games.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/join", lobby.GameJoinView.as_view(), name="game-join"),
    path("games/<int:game_id>/leave", lobby.GameLeaveView.as_view(), name="game-leave"),
    path(
        "games/<int:game_id>/invitation/accept",
        lobby.GameAcceptView.as_view(),
        name="game-invitation-accept",
    ),
    path(
        "games/<int:game_id>/invitation/decline",
        lobby.GameDeclineView.as_view(),
        name="game-invitation-decline",
    ),
    path("games/<int:game_id>/start", lobby.GameStartView.as_view(), name="game-start"),
    path("games/<int:game_id>/cancel", lobby.GameCancelView.as_view(), name="game-cancel"),
    path(
        "games/<int:game_id>/extra-time", lobby.GameExtraTimeView.as_view(), name="game-extra-time"
    ),
    path("games/<int:game_id>/reclaim", lobby.GameReclaimView.as_view(), name="game-reclaim"),
    path("games/<int:game_id>/legal-actions", play.LegalActionsView.as_view(), name="game-legal"),
    path("games/<int:game_id>/actions", play.ActionView.as_view(), name="game-actions"),
    path("games/<int:game_id>/moves", log.MoveListView.as_view(), name="game-moves"),
    path("games/<int:game_id>/events", stream.GameEventsView.as_view(), name="game-events"),
    path("vacations", vacations.VacationListView.as_view(), name="vacations"),
    path(
        "vacations/<int:vacation_id>/end", vacations.VacationEndView.as_view(), name="vacation-end"
    ),
    path("games/<int:game_id>/result", log.ResultView.as_view(), name="game-result"),
    path("games/<int:game_id>/record", log.RecordView.as_view(), name="game-record"),
]
